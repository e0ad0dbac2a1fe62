// Package tpe is the tree-structured Parzen estimator (seed 004 §4.1.3,
// Eq. 4.18; spec constrained-autotinyml §6; Bergstra et al. 2011), the
// cheap model of Optuna and Hyperopt, for budgets beyond a GP's reach and
// for conditional spaces: each parameter's densities use only the trials
// in which it was active.
package tpe
