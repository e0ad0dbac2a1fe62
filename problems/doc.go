// Package problems holds the problems boa is measured on, behind one
// interface (Problem), and resolves their names: the test functions of
// problems/functions ("branin", "ackley:5"), the BBOB suite of
// problems/bbob ("bbob:F:D:I"), the mixed categorical problems of the
// CoCaBO and CASMOPOLITAN papers in problems/mixed ("func3c", "pest"),
// the conditional Jenatton problem of problems/conditional, the synthetic
// NAS-Bench-201 oracle of problems/nas and the tables of problems/tabular
// ("nb201:PATH"), and FITBO's benchmarks with their observation noise
// ("branin_fitbo:noisy", Noisy). boa run --function and boa bench both use it; the
// benchmark harness (bench) runs samplers on its problems.
package problems
