// Package grabnel is GRABNEL, the Bayesian-optimisation attack on graph
// classifiers [000 §6.6; spec attacks §2].
package grabnel
