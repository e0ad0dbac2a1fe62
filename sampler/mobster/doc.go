// Package mobster is a GP-based multi-fidelity sampler after MOBSTER
// (Klein et al. 2020, "Model-based asynchronous hyperparameter and neural
// architecture search"): one Gaussian process over (configuration ×
// fidelity), fitted to every value the trials reported on the way
// (sampler.History.Partial, the step as an extra input) and to the final
// values, and expected improvement at one fidelity to propose the next
// configuration.
//
// It is the "stopping" variant of MOBSTER: which trials go on and which
// stop is the study's pruner, asynchronous successive halving
// (`pruner: {type: asha, ...}`, pruner.SuccessiveHalving; Li et al. 2020)
// or Hyperband, as bohb leaves its brackets to the study's pruner. A
// sampler of boa proposes configurations and never sees a running trial
// until it reports, and the pruner already decides at every report, on
// every worker, without a synchronisation point: ASHA's stopping rule is
// what MOBSTER runs asynchronously, and the model only has to choose the
// configurations that start. The "promotion" variant, which pauses trials
// and resumes the best, needs trials that can be paused and resumed, which
// a boa command is not. The choices are in docs/samplers.md, "mobster".
package mobster
