// Package constrained holds no code: its folder is an example study
// (README.md) that tunes a scikit-learn random forest for accuracy under
// a model-size limit, and its test runs that very study file with boa.
package constrained
