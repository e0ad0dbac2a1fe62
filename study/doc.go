// Package study runs an optimisation: a Study holds a search space and the
// history of its trials, asks a sampler for new trials, and takes their
// results back (ask/tell, as in Optuna). Optimize runs an objective with
// several goroutine workers; the trials they are running are passed to the
// sampler as pending, so it does not propose them again.
//
// boa minimises internally; a study whose direction is Maximize negates
// values at this edge (DESIGN.md §1) and reports them in the user's sense.
// Before that, a study with a transform (Spec.Transform: the log or the
// copula of the values, package transform) maps the values its sampler
// sees; its trials keep the values as reported.
// A trial whose objective returns an error, panics, or returns NaN or ±Inf
// is FAILED with the reason recorded and is left out of the model; one
// whose objective returns ErrPruned is PRUNED (stopped early), which the
// study's pruner (Options.Pruner, Spec.Pruner; package pruner: median,
// percentile, successive halving, Hyperband, as in Optuna) advises after
// each report through ShouldPrune.
package study
