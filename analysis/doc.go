// Package analysis computes what a study's trials show — the optimisation
// history, parameter importances, slices, contours, the empirical
// distribution of the values, learning curves, the timeline by worker and
// parallel coordinates — from trials already in memory. The dashboard
// (package server) and `boa report` (package report) draw the same numbers
// from it, so a plot in the browser and a PNG never disagree.
//
// Every function reads a Study (the space, the direction and the trials in
// number order) and allocates its answer; none writes anything.
//
// # Importances: fANOVA
//
// Importances is the functional ANOVA of a random forest (Hutter, Hoos and
// Leyton-Brown 2014, "An efficient approach for assessing hyperparameter
// importance", ICML), as Optuna's FanovaImportanceEvaluator computes it: a
// forest of 64 trees, depth at most 64, min_samples_split 2,
// min_samples_leaf 1, bootstrap, all features at every split (scikit-learn's
// RandomForestRegressor as Optuna configures it), fitted to the COMPLETE
// trials' values. Each tree is a piecewise-constant function on the box of
// the space; its variance V under the uniform measure on the box and the
// variance V_i of its marginal over parameter i (the other parameters
// integrated out) are computed exactly from the leaves' boxes. The
// importance of i is the mean over the trees with V > 0 of V_i/V, and the
// importances are normalised to sum to 1 (Optuna's get_param_importances,
// normalize=True).
//
// Deviations from Optuna, each deliberate:
//   - The box is boa's unit cube (package space): a log-scale parameter is
//     measured uniformly in log v, as boa samples it, where Optuna measures
//     it on the raw scale (transform_log=False).
//   - A categorical or boolean parameter is one coordinate whose L cells
//     (one per choice) have equal width, so its marginal gives every choice
//     the same weight; Optuna one-hot encodes it and marginalises over the
//     2^L corners of the encoded columns, most of which are not choices.
//   - At most 4,000 trials are fitted: when a study has more COMPLETE
//     trials, the 2,000 best in the study's direction and a random 2,000 of
//     the rest (drawn from the seed). Optuna fits all of them. The best
//     trials keep the region that matters sharp; the random rest keeps the
//     whole space in view; and the forest's cost stays bounded
//     (BenchmarkImportances50k).
//
// Conditional parameters: as Optuna does (intersection_search_space), only
// the parameters active in every fitted trial are analysed; the others are
// left out of the result. A parameter with a single legal value gets share 0.
//
// ContourOf fits the same kind of forest (16 trees) on the same sample, over every
// parameter (an inactive one at its placeholder code), and predicts on a
// grid over two parameters with the others at the best trial's values.
//
// # Scale
//
// Everything but Importances and ContourOf is linear in the number of
// trials; those two fit a forest on at most 4,000 trials. The benchmarks at
// 50,000 trials (bench_test.go) are the dashboard's budget.
package analysis
