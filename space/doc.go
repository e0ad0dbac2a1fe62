// Package space describes search spaces — float, integer, ordinal,
// categorical and boolean parameters, optionally conditional on other
// parameters — and maps them to and from the unit cube [0,1]^d in which the
// surrogate models and inner optimisers work. The spec's per-study choice
// between this box and [−1,1]^d (InputScaling, spec gp-and-acquisitions §0
// Decision) is not implemented: CoCaBO maps its continuous part to [−1,1]
// itself, as its seed chapter does, and every other sampler keeps [0,1]
// (docs/gp-defaults.md).
//
// Every parameter owns one coordinate of the cube. Float parameters map
// linearly (or linearly in log v). A discrete parameter with L legal values
// splits [0,1] into L cells, one per value; the centre of a cell is the
// value's canonical code, and Round snaps a coordinate to it. Integer
// parameters on a log scale use cells whose widths follow log v (see Space.Encode).
// Categorical parameters are one-hot encoded for the GP by Features, as in the
// one-hot baseline of CoCaBO [000 §5.4].
//
// Conditional parameters (field When) are active only when their parents take
// listed values; inactive parameters are absent from an Assignment, keep a
// placeholder code of 0.5 in the cube, and map to zero features.
//
// Spaces are read from the `space:` mapping of a study file in YAML or JSON
// (DESIGN.md §2.2), with errors that name the parameter, the line and the
// problem. Initial designs (uniform, scrambled Sobol, maximin Latin
// hypercube) come from package qmc.
package space
