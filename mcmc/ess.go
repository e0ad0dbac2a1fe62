// Package mcmc draws samples from a posterior known up to a constant:
// elliptical slice sampling (Murray, Adams & MacKay 2010), which the
// seeds use to marginalise a GP's hyper-parameters [000 §2.1.2, §3.3;
// spec gp-and-acquisitions §3.3].
package mcmc

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// ESS is elliptical slice sampling of p(u) ∝ L(u)·N(u; Mean, diag(SD²)):
// a Gaussian prior (independent coordinates, as every prior of the spec
// is) times a likelihood of any shape. ESS has no step size to tune, which
// is why the seeds pick it for log hyper-parameters [000 §3.3].
type ESS struct {
	Mean []float64 // prior mean m₀
	SD   []float64 // prior standard deviations, one per coordinate (> 0)
	// LogLik is log L(u); −Inf (or NaN) marks a point of zero likelihood,
	// such as hyper-parameters whose Gram matrix cannot be factorised.
	LogLik func(u []float64) float64
}

// Chain is the state of one chain: the current point and its
// log-likelihood, and how many transitions it made and how many of them
// left the point unchanged (a bracket that shrank to nothing).
type Chain struct {
	U        []float64
	LogLik   float64
	Steps    int
	Rejected int
}

// minBracket is the angle bracket below which a transition gives up and
// keeps the current point (spec §3.3, step 5).
const minBracket = 1e-12

// Start returns a chain at u (copied). It fails when the prior is
// malformed or L(u) is not positive: ESS can only move from a point of
// positive likelihood.
func (e *ESS) Start(u []float64) (*Chain, error) {
	if len(e.Mean) != len(e.SD) || len(u) != len(e.Mean) {
		return nil, fmt.Errorf("mcmc: ESS with %d means, %d standard deviations and a start of %d", len(e.Mean), len(e.SD), len(u))
	}
	for i, s := range e.SD {
		if !(s > 0) || math.IsInf(s, 0) || math.IsNaN(e.Mean[i]) || math.IsInf(e.Mean[i], 0) {
			return nil, fmt.Errorf("mcmc: ESS prior coordinate %d: mean %v, sd %v (want finite, sd > 0)", i, e.Mean[i], s)
		}
	}
	if e.LogLik == nil {
		return nil, errors.New("mcmc: ESS without LogLik")
	}
	c := &Chain{U: append([]float64(nil), u...)}
	c.LogLik = e.LogLik(c.U)
	if math.IsNaN(c.LogLik) || math.IsInf(c.LogLik, -1) {
		return nil, fmt.Errorf("mcmc: ESS start %v has zero likelihood", u)
	}
	return c, nil
}

// Step makes one transition of c [spec §3.3, steps 2–5]: an ellipse
// through the current point and a prior draw ν, a slice height under the
// current likelihood, and angles drawn from a bracket that shrinks
// towards the current point until one lands above the slice.
func (e *ESS) Step(c *Chain, rng *rand.Rand) {
	d := len(c.U)
	nu := make([]float64, d)
	for i := range nu {
		nu[i] = e.SD[i] * rng.NormFloat64()
	}
	logT := c.LogLik + math.Log(rng.Float64())
	phi := rng.Float64() * 2 * math.Pi
	lo, hi := phi-2*math.Pi, phi
	next := make([]float64, d)
	c.Steps++
	for {
		s, co := math.Sincos(phi)
		for i := range next {
			next[i] = e.Mean[i] + (c.U[i]-e.Mean[i])*co + nu[i]*s
		}
		if ll := e.LogLik(next); ll > logT { // false for NaN
			c.U, c.LogLik = next, ll
			return
		}
		if phi < 0 {
			lo = phi
		} else {
			hi = phi
		}
		if hi-lo < minBracket {
			c.Rejected++
			return
		}
		phi = lo + rng.Float64()*(hi-lo)
	}
}

// Run makes burn transitions, then returns n samples taken every thin
// transitions (thin ≤ 1 means every one), each a copy. The chain is left
// at the last sample, so a later Run continues it (the seeds restart
// each BO iteration's chain from the last state; spec §3.3 Decision).
func (e *ESS) Run(c *Chain, burn, n, thin int, rng *rand.Rand) [][]float64 {
	thin = max(thin, 1)
	for range burn {
		e.Step(c, rng)
	}
	out := make([][]float64, n)
	for i := range out {
		for range thin {
			e.Step(c, rng)
		}
		out[i] = append([]float64(nil), c.U...)
	}
	return out
}
