// Package lcbench serves LCBench (Zimmer et al. 2021) through YAHPO Gym's
// surrogate of it (Pfisterer et al. 2022): for 34 OpenML tasks and a
// funnel-shaped MLP's seven hyper-parameters, a network predicts the
// learning curve — validation and test accuracy and cross-entropy, and the
// wall-clock time — at every epoch from 1 to 52. Epochs are the fidelity:
// a multi-fidelity method reads the curve as far as it likes and pays the
// predicted time.
//
// The surrogate is the ONNX model of ../shared/data/yahpo/lcbench,
// evaluated in pure Go by package onnx, with that folder's
// config_space.json (the search space and its defaults) and encoding.json
// (the code of each task). The model takes the hyper-parameters on their
// original scale and applies YAHPO's log and min–max transforms itself, as
// YAHPO's own interface feeds it [reference code: slds-lmu/yahpo_gym];
// so does this package. See docs/lcbench.md for the check values.
//
// Problem is one task as a problem to minimise, the validation error
// 100 − val_accuracy (percent) as for NAS-Bench-201 in problems/tabular,
// at the last epoch or at any epoch asked for.
package lcbench
