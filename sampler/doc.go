// Package sampler holds the strategies that propose the next trial of a
// study, behind one small interface (Sampler):
//
//   - random, sobol: uniform and scrambled-Sobol search;
//   - gpbo: GP-based Bayesian optimisation (seed 000 §2.1–2.2, seed 002
//     §2.1–2.3): a Matérn-5/2 ARD GP on standardised targets, log-EI
//     maximised by sample-then-refine, Kriging Believer for pending trials
//     (spec gp-and-acquisitions §1–6); categoricals one-hot;
//   - onehot-gp: the one-hot GP baseline of the mixed-space papers (gpbo's
//     model, UCB κ = 2, optimised in the relaxed one-hot space and rounded;
//     mixed spec §4.4);
//   - cocabo (-0, -0.5, -1, -auto): CoCaBO, one EXP3 agent per categorical
//     variable and a GP on the mixture kernel over the continuous part
//     (seed 000 §5.2–5.5, Algs. 5–6; seed 002 ch. 5), with a batch mode;
//   - casmopolitan: trust regions in Hamming distance and in the box, local
//     search, guided restarts (seed 000 §5.6, Alg. 7);
//   - tpe: the tree-structured Parzen estimator (seed 004 §4.1.3, Eq. 4.18;
//     spec constrained-autotinyml §6), the cheap model of Optuna and
//     Hyperopt, for budgets beyond a GP's reach;
//   - playbook (-l, -h, -ll, -hl): PLAyBOOK, asynchronous batch BO that
//     penalises the acquisition around running trials instead of
//     fantasising them (seed 000 ch. 4, seed 002 ch. 4; spec
//     async-batch-playbook); its baselines are kb, gpbo with UCB κ = 2 and
//     Kriging Believer, cl-min, the same with the constant liar, and ts,
//     Thompson sampling that leaves running trials out;
//   - nasbowl (-r, -ucb, -vh, -edge, -gcn): NAS-BOWL, architecture search
//     with a GP on the Weisfeiler–Lehman kernel of the cells' graphs, EI
//     over a pool of mutated cells (seed 000 ch. 7, seed 003; spec
//     nas-graph-bo), and its motif scores (Motifs); -edge and -gcn swap
//     in the kernels of thesis 001; its baselines are 001-bo-*, thesis
//     001's own search (GraphLCB), re, regularised evolution, rs, random
//     search without repeats, and ls, local search;
//   - auto: chooses among gpbo, cocabo and casmopolitan by the space
//     (auto.go).
//
// Samplers are stateless between calls as far as correctness goes: every
// Suggest recomputes what it needs from the History — the bandit weights of
// cocabo and the trust regions of casmopolitan by replaying the history in
// trial order — so a study resumes correctly after a crash. What they keep
// between calls is a cache of fitted hyper-parameters (a warm start). The
// one fact a replay cannot recompute, whether a trial's point came from
// the design or from the model, the study records with the trial as the
// sampler says it (Designer, Origin).
package sampler
