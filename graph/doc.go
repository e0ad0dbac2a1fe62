// Package graph holds labelled directed graphs for neural architecture
// search: the cell encodings of NAS benchmarks (NAS-Bench-201), the
// Weisfeiler–Lehman subtree features of a graph and the WL kernel on them,
// the surrogate of NAS-BOWL (Ru, Wan, Dong, Osborne; seed 000 ch. 7,
// seed 003; nas-graph-bo.md §1–3), and the two other graph kernels of
// thesis 001 (§3.3–3.4): counts of edge labels, and an untrained graph
// convolutional network's embedding.
//
// A WL feature counts a rooted subtree of the graph (a motif): the
// features of depth 0 count the operations, those of depth h the
// operations together with what follows them h steps down. Because the
// features are named (WL.Name), a model on them says which motifs make an
// architecture good.
package graph
