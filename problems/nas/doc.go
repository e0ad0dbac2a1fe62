// Package nas holds architecture-search benchmark problems that need no
// data: the synthetic NAS-Bench-201 oracle of nas-graph-bo.md §10, whose
// value is a known function of the cell's graph with a planted motif, so
// that a test can check that NAS-BOWL finds good cells and that its
// motif scores name the planted one. The real NB201 tables are in
// package tabular.
package nas
