// Package tabular loads tabular benchmarks — tables that hold, for every
// configuration of a finite search space, the result of actually training
// it with several seeds — and serves them as problems to minimise:
//
//   - nb201: NAS-Bench-201 cells (Dong & Yang, ICLR 2020), six edges of a
//     4-node cell each one of five operations, 15,625 cells; objective the
//     validation error 100 − accuracy (percent), and test accuracy for the
//     test regret of an incumbent [nas-graph-bo.md §1.2, §10; 000 App. B.3];
//   - hpobench: the HPOBench tabular MLP benchmark (Eggensperger et al.,
//     NeurIPS 2021 Datasets and Benchmarks), a 5-D ordinal grid; objective
//     1 − balanced validation accuracy;
//   - fcnet: the FCNet/HPOLib tabular benchmarks (Klein & Hutter 2019), a
//     9-D grid of ordinal and categorical hyperparameters; objective the
//     validation MSE.
//
// The file formats are those of the READMEs in ../shared/data/{nb201,
// hpobench-mlp,fcnet}: CSV with a header, one row per configuration and one
// column per training seed (valid_acc_seed0.. for nb201, seed0.. for the
// others). Only the column roles are fixed here; the grid of a hpobench or
// fcnet table is read from the file (each hyperparameter takes the distinct
// values of its column), so held-out data sets in the same format load as
// they are. Columns may come in any order, and the number of seed columns is
// whatever the header has (at least one).
//
// Loading rejects, with an error naming the file, line and column: a
// missing or malformed header (listing the missing, unexpected and repeated
// columns), numbers that do not parse, NaN and ±Inf, values outside the
// documented range (accuracies in [0, 100] resp. [0, 1], MSE ≥ 0), a
// configuration on two rows, a row without any seed value, and a file that
// does not hold every configuration of its grid (the documented formats all
// do, and an optimiser may propose any grid point). An empty seed field is a
// missing run: such a configuration is averaged over, and noisy queries draw
// from, the seeds it has — as for the 7,456 NB201 cells trained twice. For
// nb201 the optional columns valid_acc_mean (which must equal the mean of
// the seed columns to 1e-6) and test_acc_12ep are checked but not used;
// index is checked and kept (Table.Index), the key other NB201 data such as
// latencies are joined on.
//
// In the noisy setting a query returns one seed's value drawn uniformly, as
// the benchmarks' APIs answer a query; otherwise the seed mean
// [000 §7.5.2, App. A.7]. Optimum, the reference of regret in both
// settings, is the best seed mean.
package tabular
