// Package opt holds boa's inner optimisers: the routines that maximise an
// acquisition function or fit GP hyper-parameters, as opposed to the outer
// Bayesian-optimisation loop.
//
// BoxLBFGS is a projected limited-memory BFGS for box-constrained smooth
// minimisation (spec gp-and-acquisitions §3.2, Decision: gonum/optimize has
// no bound constraints). Maximize is the default acquisition optimiser,
// sample-then-refine (spec §6.1): score a scrambled Sobol set of raw
// candidates, refine the best few with BoxLBFGS on the continuous
// coordinates and a best-improvement local search over discrete moves, and
// keep the best point found. The same pair of routines serves mixed and
// purely discrete domains through Domain's Round and Neighbours hooks.
package opt
