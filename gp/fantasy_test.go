package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

func TestFantasize(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for name, g := range testModels(t, rng) {
		Xf := randPoints(3, 3, rng)
		yf := make([]float64, len(Xf))
		for i, x := range Xf {
			yf[i], _ = g.Predict(x) // Kriging Believer
		}
		yf[2] = 10 // Constant Liar style
		Xt := randPoints(8, 3, rng)
		before := make([]float64, len(Xt))
		for i, x := range Xt {
			before[i], _ = g.Predict(x)
		}
		f, err := g.Fantasize(Xf, yf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Len() != g.Len()+3 {
			t.Fatalf("%s: fantasy has %d points", name, f.Len())
		}
		// Reference: a full factorisation of the augmented data with the
		// same hyper-parameters and the same standardisation.
		xs, ys := extended(g, Xf, yf)
		ref, err := newGP(xs, ys, g.offset, g.scale, g.k.Clone(), math.Log(g.noise), MeanZero)
		if err != nil {
			t.Fatal(err)
		}
		var maxDiff float64
		for i, x := range append(Xt, Xf...) {
			m1, v1 := f.Predict(x)
			m2, v2 := ref.Predict(x)
			maxDiff = math.Max(maxDiff, math.Max(math.Abs(m1-m2), math.Abs(v1-v2)))
			if i < len(Xt) {
				if m, _ := g.Predict(x); m != before[i] {
					t.Errorf("%s: Fantasize changed the base model", name)
				}
			}
		}
		if maxDiff > 1e-9 {
			t.Errorf("%s: fantasy vs refit max abs diff %v > 1e-9", name, maxDiff)
		}
		if d := math.Abs(f.LogMarginal() - ref.LogMarginal()); d > 1e-9 {
			t.Errorf("%s: LML differs by %v", name, d)
		}
	}
}

func TestFantasizeDuplicateNoiseless(t *testing.T) {
	X := [][]float64{{0.1}, {0.5}, {0.9}}
	k := kernel.NewStationary(kernel.RBF, 1, false)
	k.SetLengthscales([]float64{0.3})
	g, err := New(X, []float64{1, 2, 3}, k, 0)
	if err != nil {
		t.Fatal(err)
	}
	// A duplicate of an observation with zero noise needs the jitter guard.
	f, err := g.Fantasize([][]float64{{0.5}}, []float64{2})
	if err != nil {
		if !errors.Is(err, ErrNotPositiveDefinite) {
			t.Fatalf("unexpected error %v", err)
		}
		return
	}
	if m, _ := f.Predict([]float64{0.5}); math.Abs(m-2) > 1e-3 {
		t.Errorf("mean at duplicate %v, want 2", m)
	}
	if _, err := g.Fantasize([][]float64{{0.2}}, []float64{math.NaN()}); err == nil {
		t.Error("NaN fantasy target accepted")
	}
	if _, err := g.Fantasize([][]float64{{0.2, 0.3}}, []float64{1}); err == nil {
		t.Error("wrong-dimension fantasy accepted")
	}
}

// TestFantasizeHugeTarget: a finite but huge fantasy target (a Constant Liar
// value from a diverged run) is clipped as Fit clips its targets, so the
// predictions stay finite instead of turning NaN.
func TestFantasizeHugeTarget(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	X, y := randData(10, 2, rng)
	g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.Matern52, 2, true), Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{1e308, -1e308, math.MaxFloat64} {
		f, err := g.Fantasize([][]float64{{0.5, 0.5}}, []float64{v})
		if err != nil {
			t.Fatalf("y = %g: %v", v, err)
		}
		dm, dv := make([]float64, 2), make([]float64, 2)
		m, s := f.PredictGrad([]float64{0.3, 0.3}, dm, dv)
		for _, w := range []float64{m, s, dm[0], dm[1], dv[0], dv[1]} {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				t.Fatalf("fantasy y = %g: mean %v, variance %v, gradients %v %v", v, m, s, dm, dv)
			}
		}
	}
}
