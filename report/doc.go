// Package report writes a study's report: PNG plots (gonum/plot, in the
// style of bench's plots) of the optimisation history, the parameter
// importances, the empirical distribution of the values, the intermediate
// values, a slice per parameter, a contour of the two most important
// parameters and the timeline by worker, and report.md, which links them
// under a summary (trials by state, the best trial and its parameters,
// feasible counts in a constrained study). The numbers come from package
// analysis, the same ones the dashboard shows; `boa report` wires it.
//
// A plot that has nothing to show (no intermediate values reported, fewer
// than two COMPLETE trials for the importances) is left out, and report.md
// says why. Very long studies stay drawable: the best-so-far line keeps
// every change of the best (analysis.Downsample), and at most maxCurves
// learning curves are drawn (the best trial's always among them).
package report
