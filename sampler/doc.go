// Package sampler holds the strategies that propose the next trial of a
// study: random search, scrambled Sobol, GP-based Bayesian optimisation
// (gpbo) and auto, which picks one for the space at hand.
//
// A sampler is stateless between calls as far as correctness goes: every
// Suggest recomputes what it needs from the History (so a study resumes
// correctly after a crash). gpbo keeps only a warm start for its
// hyper-parameter fit, a cache that speeds up the next fit and changes no
// contract.
//
// gpbo follows the standard GP-BO loop of seed 000 §2.1–2.2 and seed 002
// §2.1–2.3: a Matérn-5/2 ARD GP on standardised targets (spec
// gp-and-acquisitions §1–3), log-EI (spec §4.1) maximised by
// sample-then-refine (spec §6.1), and Kriging Believer fantasies for
// pending trials.
package sampler
