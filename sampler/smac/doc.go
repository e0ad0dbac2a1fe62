// Package smac is the SMAC-like baseline of spec constrained-autotinyml §6
// (Hutter et al. 2011): a random forest (spec §4.2, package forest) models
// the loss, expected improvement on the forest's mean and σ chooses the
// next configuration by local search in the one-exchange neighbourhood
// from the 10 best observed configurations plus 5,000 random ones, and
// every second suggestion is a uniformly random configuration. Failed
// trials enter the model at a penalty value (the spec's Decision) or are
// left out (FeasibleOnly). The choices the spec leaves open are listed on
// SMAC and in docs/samplers.md, "SMAC-like". "spec §N" in this package is
// a section of spec constrained-autotinyml.
package smac
