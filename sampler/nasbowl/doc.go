// Package nasbowl searches neural architectures given as cells, one
// categorical parameter per edge holding its operation (spec nas-graph-bo):
//
//   - nasbowl (-r, -ucb, -vh, -edge, -gcn): NAS-BOWL, a GP on the
//     Weisfeiler–Lehman kernel of the cells' graphs with EI over a pool of
//     mutated cells (seed 000 ch. 7, seed 003), and the motif scores that
//     explain a study (Motifs); -edge and -gcn swap in thesis 001's kernels;
//   - graph-lcb-wl, -edge, -gcn (GraphLCB): thesis 001's own search, LCB
//     over hybrid-sampled candidates (001 §4.2–4.4), named 001-bo-* before
//     issue 33 (those names remain aliases);
//   - re (Evolution), regularised evolution, and ls (LocalSearch), local
//     search, the baselines of nas-graph-bo.md §8.
//
// docs/nasbowl.md has the measurements.
package nasbowl
