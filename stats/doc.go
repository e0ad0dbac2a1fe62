// Package stats is the significance testing of spec
// constrained-autotinyml §8: the two-sided Mann–Whitney U test of two
// independent samples, the Wilcoxon signed-rank test of paired ones (the
// thesis's "paired Mann–Whitney", for SVM-CBO against SVM-CBO_RF, which
// share their initial designs: the spec's Decision), and the significance
// stars of its reports.
package stats
