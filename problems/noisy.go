package problems

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/space"
)

// NoisySuffix marks the noisy variant of a benchmark function:
// "branin_fitbo:noisy" is branin_fitbo observed with Gaussian noise.
const NoisySuffix = ":noisy"

// noiseVariance is the observation-noise variance of each function that
// has a noisy variant: FITBO's benchmarks add variance 1e-3 on their
// rescaled outputs [000 §3.3.3; spec gp-and-acquisitions §9.3 and
// Corrections, "FITBO benchmark scales"].
var noiseVariance = map[string]float64{
	"branin_fitbo":    1e-3,
	"eggholder_fitbo": 1e-3,
	"hartmann6_fitbo": 1e-3,
}

// Noisy is a test function observed with additive Gaussian noise: Evaluate
// returns f(x) + ε, ε ~ N(0, variance) drawn from the rng it is given (a
// benchmark run's, so a run is reproducible from its seed; a nil rng adds
// no noise). Optimum is the noise-free f*, and the regret of a
// recommendation is measured on the noise-free function (Value,
// TestRegret).
type Noisy struct {
	*function
	fn       functions.Function
	variance float64
}

// noisyFixed resolves "NAME:noisy" for the functions of noiseVariance.
func noisyFixed(name string) (p Problem, found bool, err error) {
	base, ok := strings.CutSuffix(strings.ToLower(strings.TrimSpace(name)), NoisySuffix)
	if !ok {
		return nil, false, nil
	}
	v, ok := noiseVariance[base]
	if !ok {
		return nil, false, nil
	}
	fn, err := functions.Get(base, 0)
	if err != nil {
		return nil, true, err
	}
	f := newFunction(base+NoisySuffix, fn.Dim, fn.Lower, fn.Upper, fn.F, fn.Optimum)
	return &Noisy{function: f, fn: fn, variance: v}, true, nil
}

// NoiseVariance is the variance of the observation noise.
func (p *Noisy) NoiseVariance() float64 { return p.variance }

// Evaluate returns the noisy observation f(x) + ε.
func (p *Noisy) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	v, err := p.Value(a)
	if err != nil || rng == nil {
		return v, err
	}
	return v + math.Sqrt(p.variance)*rng.NormFloat64(), nil
}

// Value returns the noise-free f(x).
func (p *Noisy) Value(a space.Assignment) (float64, error) {
	x, err := p.point(a)
	if err != nil {
		return 0, err
	}
	return p.f(x), nil
}

// TestRegret is the noise-free regret f(x) − f* of a recommended
// configuration (the incumbent a benchmark run reports): the observed
// best value of a noisy run is biased low by the noise.
func (p *Noisy) TestRegret(a space.Assignment) (float64, bool) {
	v, err := p.Value(a)
	if err != nil {
		return 0, false
	}
	return v - p.fn.Optimum, true
}
