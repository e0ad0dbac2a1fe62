// Package random holds the samplers that use no model: random (Uniform),
// independent uniform draws in the encoded space; sobol (Sobol), one
// scrambled Sobol sequence drawn from the study's seed (spec
// gp-and-acquisitions §6.2); and rs (Untried), uniform draws that skip
// the configurations tried already, the random-search baseline of the NAS
// benchmarks (spec nas-graph-bo §8).
package random
