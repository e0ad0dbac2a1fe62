// Package pruner decides when a running trial should stop early: after
// every intermediate value a trial reports, its pruner compares the
// trial's learning curve with the other trials' curves and says whether to
// give up on it. Stopping the trials that are clearly behind leaves their
// compute to new trials.
//
// The pruners follow Optuna 3.1 exactly, so that a boa study and an Optuna
// study run side by side prune alike (spec tse-and-early-stopping §9):
//
//   - Percentile and NewMedian: Optuna's PercentilePruner and MedianPruner
//     (§9.2): stop a trial whose best value so far is worse than the q-th
//     percentile of the complete trials' values at the same step.
//   - SuccessiveHalving: Optuna's SuccessiveHalvingPruner, asynchronous
//     successive halving (ASHA, §9.3): at geometrically spaced rungs keep
//     the top 1/η of the trials that reached the rung.
//   - Hyperband: Optuna's HyperbandPruner (§9.4): several successive
//     halving brackets with different early-stopping rates, each trial in
//     one bracket picked by a hash of the study name and trial number.
//   - Threshold: Optuna's ThresholdPruner: stop a trial whose latest value
//     is NaN or outside [Lower, Upper].
//   - Nop: Optuna's NopPruner, never stops a trial.
//   - Estimated: a project extension (§9.5): any of the above deciding on
//     a training-speed estimate of each curve (package curve) instead of
//     its reported values.
//
// A boa report is a Point{Step, Value}, the value in the study's own sense
// (a loss when the study minimises, an accuracy when it maximises, never
// negated); Study.Maximize says which direction is better. Optuna keeps
// some pruner state in the study (the values a trial had at each rung of
// successive halving, an auto min_resource fixed once); boa's pruners keep
// none and recompute it from the curves on every call (see Pruner), so a
// study resumed in another process prunes alike. Where that makes a
// decision differ from Optuna, the type's comment says so.
//
// Spec is the user-facing configuration a study file or the HTTP API
// writes, with Optuna's argument names and defaults; Spec.Build makes the
// Pruner. The parity test (optuna_parity_test.go) replays random studies
// through Optuna 3.1 itself, when it is installed, and requires every
// decision to match.
package pruner
