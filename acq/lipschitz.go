package acq

import (
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/qmc"
)

// MeanGradient is a surrogate whose posterior mean has a cheap gradient
// (gp.GP satisfies it).
type MeanGradient interface {
	// MeanGrad returns μ(x) and writes ∂μ/∂x into dmean.
	MeanGrad(x, dmean []float64) float64
}

// LipschitzSettings controls Lipschitz. A zero field takes the default of
// async-batch-playbook.md §4.
type LipschitzSettings struct {
	Starts     [][]float64 // the first starting points (the busy point, for a local constant)
	Candidates int         // scrambled Sobol points of which the best starts a run (1000 for the global constant); 0 for none
	Restarts   int         // runs in all, the rest from uniform random points; default 10
	MaxIter    int         // iterations per run; default 200
}

// flatLipschitz is the constant used when the model is flat, L̂ < 1e-7,
// where a penaliser's radius |μ − M̂|/L̂ would cover everything
// [spec §4; reference code: a5a/asynchronous-BO].
const flatLipschitz = 10

// Lipschitz estimates a Lipschitz constant of the function the model
// describes on the box [lower, upper]: L̂ = max ‖∇μ(x)‖, the largest norm
// of the posterior mean's gradient [000 §4.5.2; 002 §4.4.2; spec §4], by
// multi-start box L-BFGS on ‖∇μ‖². Over the whole input box it is the
// global constant of LP (González et al.); over a box around a busy point
// it is that point's local constant (PLAyBOOK-LL, -HL).
//
// The gradient of ‖∇μ‖² is taken by central differences (step 1e-5 box
// widths) of the exact ∇μ, the spec's rule for kernels other than
// Matérn-5/2 and RBF, where it gives the Hessian form 2H_μ∇μ: one rule for
// every kernel, at (2d + 1) mean gradients per evaluation.
func Lipschitz(m MeanGradient, lower, upper []float64, s LipschitzSettings, rng *rand.Rand) float64 {
	d := len(lower)
	dmu := make([]float64, d)
	sq := func(x []float64) float64 {
		m.MeanGrad(x, dmu)
		var s float64
		for _, g := range dmu {
			s += g * g
		}
		return -s // BoxLBFGS minimises
	}
	restarts := orDefault(s.Restarts, 10)
	starts := make([][]float64, 0, restarts)
	for _, x := range s.Starts {
		if len(starts) < restarts {
			starts = append(starts, clip(x, lower, upper))
		}
	}
	if s.Candidates > 0 && len(starts) < restarts {
		best, bestV := []float64(nil), math.Inf(1)
		for _, u := range qmc.SobolPoints(s.Candidates, d, rng) {
			x := make([]float64, d)
			for i := range x {
				x[i] = lower[i] + u[i]*(upper[i]-lower[i])
			}
			if v := sq(x); v < bestV {
				best, bestV = x, v
			}
		}
		starts = append(starts, best)
	}
	for len(starts) < restarts {
		starts = append(starts, uniform(lower, upper, rng))
	}
	f := opt.CentralDifference(sq, 1e-5)
	settings := opt.LBFGSSettings{MaxIter: orDefault(s.MaxIter, 200)}
	var l2 float64
	for _, x0 := range starts {
		if r := opt.BoxLBFGS(f, x0, lower, upper, settings); !math.IsInf(r.F, 0) {
			l2 = max(l2, -r.F)
		}
	}
	if l := math.Sqrt(l2); l >= 1e-7 {
		return l
	}
	return flatLipschitz
}

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

func clip(x, lower, upper []float64) []float64 {
	c := make([]float64, len(x))
	for i := range x {
		c[i] = min(max(x[i], lower[i]), upper[i])
	}
	return c
}

func uniform(lower, upper []float64, rng *rand.Rand) []float64 {
	x := make([]float64, len(lower))
	for i := range x {
		x[i] = lower[i] + rng.Float64()*(upper[i]-lower[i])
	}
	return x
}
