package gp_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// TestFitNoise: on a fixed kernel (precomputed from an RBF on random
// points) FitNoise finds the noise Fit finds by L-BFGS, to the same
// likelihood, and stays in its bound.
func TestFitNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 40
	pts := make([][]float64, n)
	idx := make([][]float64, n)
	y := make([]float64, n)
	for i := range pts {
		pts[i] = []float64{rng.Float64(), rng.Float64()}
		idx[i] = []float64{float64(i)}
		y[i] = math.Sin(6*pts[i][0]) + pts[i][1] + 0.1*rng.NormFloat64()
	}
	gram := kernel.Matrix(kernel.NewStationary(kernel.RBF, 2, false), pts)
	k := kernel.Indexed{F: gram.At}
	for _, bound := range []kernel.Bound{{Lo: 1e-5, Hi: 1e-2}, {Lo: 1e-5, Hi: 1}, {Lo: 0.5, Hi: 1}} {
		got, err := gp.FitNoise(idx, y, k, bound)
		if err != nil {
			t.Fatal(err)
		}
		want, err := gp.Fit(idx, y, gp.Config{Kernel: k, Noise: math.Sqrt(bound.Lo * bound.Hi), NoiseBound: bound, Restarts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got.Noise() < bound.Lo || got.Noise() > bound.Hi {
			t.Errorf("bound %v: noise %v outside", bound, got.Noise())
		}
		if d := got.LogMarginal() - want.LogMarginal(); d < -1e-6 {
			t.Errorf("bound %v: LML %v (noise %v) below Fit's %v (noise %v)", bound, got.LogMarginal(), got.Noise(), want.LogMarginal(), want.Noise())
		}
		if r := math.Abs(math.Log(got.Noise() / want.Noise())); r > 1e-2 {
			t.Errorf("bound %v: noise %v, Fit's %v", bound, got.Noise(), want.Noise())
		}
		t.Logf("bound %v: noise %.4g (Fit %.4g), LML %.6f (Fit %.6f)", bound, got.Noise(), want.Noise(), got.LogMarginal(), want.LogMarginal())
	}
	if _, err := gp.FitNoise(idx, y, k, kernel.Bound{Lo: 0, Hi: 1}); err == nil {
		t.Error("a bound from 0 accepted")
	}
}
