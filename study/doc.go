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
// each report through ShouldPrune. A misread parameter (t.Float("lrr"))
// fails its trial with a message naming the valid ones, and when every
// trial Optimize ran failed, it returns an *AllFailedError with the most
// common reason.
//
// New creates a study from Go, in memory or in a storage (Options.Storage),
// with any sampler value or a registered one by name (sampler.New);
// Create does so from a Spec (a study file's), naming the sampler.
//
// A trial whose worker dies is failed as stale and re-run once by the
// next ask: after its heartbeats have stopped for the lease, or at once
// when its process is provably gone (this machine, no process with its
// pid and start time; trials record an identity that allows it,
// SetWorker).
package study
