// Package infotheoretic holds no code: its folder is an example study
// (README.md) that tunes an RBF support-vector classifier on the digits
// with FITBO, the svm_digits task of spec gp-and-acquisitions §9.4, and
// its test runs that very study file with boa.
package infotheoretic
