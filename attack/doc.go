// Package attack is the contract of boa's black-box adversarial attacks
// (seed 000 ch. 6; spec attacks): a victim classifier that returns class
// scores only, the goal of an attack (untargeted, or a target class), the
// losses the attacks maximise, and the Oracle that stands between an
// attack and its victim: it counts queries against the budget, checks
// success on every query, stops at the first one and keeps the best input
// seen, so an attack that ends early, a victim that crashes included, still
// returns everything it learnt.
//
// The methods live one family per package below this one:
//
//	attack/image    the BayesOpt attack [000 §6.3–6.5]: a perturbation of low
//	                dimension d_r decoded by bilinear up-sampling, searched by
//	                GP-BO (Alg. 8), ADDGP-BO (Eq. 6.7) with learned or
//	                pixel-change (FD) decompositions, GP-BO-auto-d_r (Alg. 9),
//	                and the GenAttack-like genetic baseline (spec §3)
//	attack/grabnel  GRABNEL [000 §6.6, Alg. 10]: WL features, ARD Bayesian
//	                linear regression, staged single-edge flips; the random
//	                and genetic graph baselines (spec §2.5, §3)
//	attack/victim   the user's victim: a command that speaks the JSON-lines
//	                protocol of docs/attacks.md
//	attack/standin  the stand-in victims of spec §3, trained in Go: a CNN on
//	                sklearn's digits, a GCN on Erdős–Rényi graphs
//
// Losses, all maximised (boa's samplers minimise; here the seed's sign is
// kept, since success is y > 0 or better), with p the victim's scores and
// the logarithm floored at 1e-30 [spec §1.2, reference code]:
//
//	image, targeted on t     y = log p_t − log Σ_{j≠t} p_j        [000 Eq. 6.2]
//	image, untargeted (t₀)   y = max_{i≠t₀} log p_i − log p_t₀    (Decision: as GRABNEL's)
//	graph, targeted on t     y = log p_t − log p_t₀               [000 Eq. 6.10]
//	graph, untargeted        y = max_{i≠t₀} log p_i − log p_t₀    [000 Eq. 6.10]
//
// Success is decided on the scores, not on y (spec, Corrections): argmax p =
// t when targeted, argmax p ≠ t₀ when not. For images y > 0 implies it; for
// a targeted graph attack with three classes or more it does not.
package attack
