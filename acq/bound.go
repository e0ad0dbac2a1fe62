package acq

import (
	"fmt"
	"math"
)

// LCB is the confidence-bound acquisition in the minimising convention,
// α = κσ − μ, the negated lower confidence bound [000 Eq. 2.20; spec §4.2].
// Configurations named 'lcb' (minimise) and 'ucb' (maximise) both map to it:
// the study negates a maximised objective before the surrogate sees it.
// κ = 2 is the common default [000 §5.5]; GPUCBKappa gives the GP-UCB
// schedule. With σ = 0, α = −μ.
type LCB struct {
	Kappa float64 // κ ≥ 0, the weight of the standard deviation
}

// Eval implements Function.
func (a LCB) Eval(m Model, x, grad []float64) float64 {
	mu, sd, dsd := moments(m, x, grad)
	if grad != nil {
		if sd == 0 {
			scale(grad, -1)
		} else {
			chain(grad, -1, dsd, a.Kappa)
		}
	}
	return a.Kappa*sd - mu
}

// GPUCBKappa returns the GP-UCB weight κ_n = √β_n with
//
//	β_n = 2c·log(n^{d/2+2} π² / (3δ))    [000 Eq. 2.22, with the erratum of spec §4.2]
//
// where n is the number of evaluations so far (initial design included),
// d the input dimension, c > 0 a scale and δ ∈ (0, 1) the confidence
// parameter. The project defaults are c = 1, δ = 0.1. n < 1 is treated as 1.
// It panics if c ≤ 0, δ ∉ (0, 1) or dim < 1; callers validate user settings
// first.
func GPUCBKappa(n, dim int, c, delta float64) float64 {
	if !(c > 0) || !(delta > 0 && delta < 1) || dim < 1 {
		panic(fmt.Sprintf("acq: GPUCBKappa needs c > 0, 0 < δ < 1, dim ≥ 1; got c=%g δ=%g dim=%d", c, delta, dim))
	}
	n = max(n, 1)
	beta := 2 * c * ((float64(dim)/2+2)*math.Log(float64(n)) + math.Log(math.Pi*math.Pi/(3*delta)))
	return math.Sqrt(beta)
}
