// Package grabnel is GRABNEL, the Bayesian-optimisation attack on graph
// classifiers [000 §6.6] (Wan, Kenlay, Ru, Blaas, Osborne, Dong 2021; spec
// attacks §2), with the two black-box baselines it is compared with.
//
// The attack flips node pairs of an undirected graph (adds the edge if
// absent, removes it if present, [000 §6.6.3 footnote 7]) to maximise the
// graph loss of [000 Eq. 6.10] (attack.GraphLoss) within a perturbation
// budget of Δ flips and a query budget B. All queries go through one
// attack.Oracle, which counts them, checks success on every one and stops at
// the first.
//
// Methods (Config.Method):
//
//	grabnel  Alg. 10 [000 §6.6; spec §2.2]: the budget is cut into Δ stages
//	         of B/Δ queries (the last takes the rest); a stage searches the
//	         single flips of its base graph G_base with a surrogate and
//	         commits the best one, so the result is at most Δ flips from the
//	         origin.
//	random   every query is the origin with Δ uniformly random distinct
//	         admissible flips (spec §2.5).
//	genetic  a genetic algorithm in the manner of Dai et al. (2018): flip
//	         sets of size Δ, fitness = loss, tournament selection, crossover
//	         of flip sets, mutation redrawing flips (spec §2.5).
//
// The surrogate [spec §2.3]: Weisfeiler–Lehman subtree features with H = 1
// (package graph's WL over undirected neighbourhoods), nodes labelled by
// their degree; the vocabulary is that of the graphs observed so far,
// rebuilt at every refit as Alg. 10 recomputes the features, so a subtree
// no observed graph has is ignored. Features are min–max scaled to [0, 1]
// over the observed graphs (a constant column is 0) and y standardised;
// the model is ARD Bayesian linear regression (Wipf et al. 2007; [000 Eqs.
// 6.11–6.13]) fitted as scikit-learn's ARDRegression with its defaults
// (ard.go). The acquisition is EI for maximisation over the incumbent max
// y, ξ = 0, on the latent variance φᵀΣφ [spec §2.4].
//
// Decisions, from the spec:
//
//   - Δ = max(1, round(0.03·N²)), B = 50Δ capped at 20,000 (thesis values,
//     spec §2.5); with only B given, Δ = max(1, min(round(0.03·N²), B/50)).
//   - Unlabelled graphs take the node degree as their initial WL label
//     (spec §2.3).
//   - ARD: a₁ = a₂ = b₁ = b₂ = 1e-6, α₀ = 1/Var(y), λ_i = 1, pruning at
//     λ ≥ 1e4, tolerance 1e-3 on Σ|m − m_old|, 300 iterations, Φ and y
//     centred (spec §2.3 and Corrections).
//   - Each stage begins with min(5, stage budget) random admissible single
//     flips of G_base, counted in B (Corrections). A stage whose best graph
//     does not beat G_base's loss leaves G_base as it was (Corrections; the
//     reference code would take the argmax of all observations).
//   - At most 5000 admissible unqueried candidates: EI on all of them; more:
//     the genetic optimiser — population 100, half one-endpoint mutations of
//     the pairs of the stage's top-3 graphs, half random candidates; 10
//     cycles of 100 offspring, each a parent's pair with one endpoint
//     replaced by a random node (probability 0.5) or a uniformly random
//     candidate; ageing removal. The top 5 unique by EI are queried one by
//     one, so a success stops the batch (spec §2.4).
//   - The 2-hop constraint (Config.TwoHop; Fig. 6.7): an added edge (u, v)
//     must have v within 2 hops of u in the original graph; removals are
//     always allowed.
//
// Decisions of this package, where the spec is silent:
//
//   - The origin is not queried. Its loss counts as −∞, so the first stage
//     always commits its best flip (as the reference code's argmax over
//     observations does).
//   - A candidate is a flip of G_base whose graph has not been queried in
//     any stage (graphs are compared by a Zobrist hash of their edges). A
//     stage that runs out of candidates ends early; what it left goes to
//     the last stage. When B < Δ there are B stages of one query.
//   - EI ties (a surrogate that pruned every feature) are broken in a random
//     order drawn from the seed; the GA's parents are tournament winners of
//     3 on EI.
//   - The genetic baseline: population B/10 clipped to [4, 50], elitism of
//     one, tournaments of 3, crossover = Δ flips drawn from the union of the
//     parents', mutation redraws each flip with probability 0.2; a child
//     seen before reuses its loss without a query, and 1000 such children in
//     a row end the search.
//   - All randomness comes from one math/rand/v2 PCG seeded by Config.Seed:
//     the same seed gives the same queries.
//
// Deviations: the latent variance is that of the centred features, φ_cᵀΣφ_c;
// scikit-learn's predict(return_std=True) uses the raw features, and the
// reference code subtracts the mean training variance instead (spec
// Corrections: the Decision of EI on φᵀΣφ stands). The reference code's
// abort on a predicted "breakeven" above 1e5 is not implemented. Σ is
// inverted by Cholesky (the k × k precision, or the n × n Woodbury matrix
// when n < k, as scikit-learn chooses); when rounding makes the matrix
// indefinite its diagonal is raised by up to 1e-6 of its largest entry
// before the pseudo-inverse scikit-learn always uses.
package grabnel
