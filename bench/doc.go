// Package bench is boa's benchmark harness: it runs problems × samplers ×
// seeds with a fixed evaluation budget, side by side with peer optimisers
// (goptuna, Optuna) on the same problems, and summarises the runs as the
// JSON of DESIGN.md §2.5, a Markdown report and PNG plots.
//
// Problems come from the sub-packages: functions (the classic test
// functions), bbob (the 24 COCO functions with their instances) and
// tabular (NAS-Bench-201, HPOBench and FCNet tables loaded from CSV);
// constrained problems are scored by their feasible evaluations
// (constrained.go) and multi-objective ones by the hypervolume of the
// Pareto front of their evaluations against the true front's
// (multiobjective.go).
// Peers come from peers. A run evaluates one configuration at a time,
// synchronous batches (Config.Batch, boa's samplers only) or asynchronous
// workers on a simulated clock (Config.Workers). RunFidelity is the
// multi-fidelity benchmark: problems with learning curves
// (FidelityProblem: NB201 at 12 and 200 epochs, LCBench's 52), a budget
// in epochs, each trial reporting to its method's pruner
// (docs/multifidelity.md). Every run is deterministic given its seed, except
// goptuna-tpe's: goptuna's TPE draws from Go's global random source after
// its start-up trials, which no seed reaches (a limitation of goptuna v0.9.0).
package bench
