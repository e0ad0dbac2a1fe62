// Package casmopolitan is CASMOPOLITAN (seed 000 §5.6, Alg. 7; spec
// mixed-cocabo-casmopolitan §5): a GP on the exponentiated-overlap and
// Matérn kernels, trust regions in Hamming distance for the categories
// and a box for the continuous part, local search for the acquisition and
// restarts guided by a global GP. The trust regions are replayed from the
// history at every call, so it keeps no state. docs/casmopolitan.md has
// its measurements.
package casmopolitan
