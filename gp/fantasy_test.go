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

// TestExtend checks that a model extended by new observations, with all
// targets given anew, is the model NewWithMean factorises on all of them
// at the same hyper-parameters, for both prior means.
func TestExtend(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	X, y := randData(40, 3, rng)
	for _, mean := range []Mean{MeanZero, MeanConstant} {
		k := kernel.NewStationary(kernel.Matern52, 3, true)
		g, err := NewWithMean(X[:30], y[:30], k, 1e-4, mean)
		if err != nil {
			t.Fatal(err)
		}
		y2 := append([]float64(nil), y...)
		y2[0] = 7 // a transform may remap earlier targets too
		e, err := g.Extend(X[30:], y2)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := NewWithMean(X, y2, k, 1e-4, mean)
		if err != nil {
			t.Fatal(err)
		}
		if e.Len() != 40 || math.Abs(e.Mean()-ref.Mean()) > 1e-9 {
			t.Errorf("mean %d: %d points, c %v, want 40 and %v", mean, e.Len(), e.Mean(), ref.Mean())
		}
		for _, x := range append(randPoints(10, 3, rng), X...) {
			m1, v1 := e.Predict(x)
			m2, v2 := ref.Predict(x)
			if math.Abs(m1-m2) > 1e-9 || math.Abs(v1-v2) > 1e-9 {
				t.Fatalf("mean %d: extended predicts (%v, %v), factorised (%v, %v)", mean, m1, v1, m2, v2)
			}
		}
		if d := math.Abs(e.LogMarginal() - ref.LogMarginal()); d > 1e-9 {
			t.Errorf("mean %d: LML differs by %v", mean, d)
		}
	}
	// A duplicate input that needs more jitter than the model has fails,
	// and the caller factorises afresh.
	k := kernel.NewStationary(kernel.Matern52, 3, true)
	g, err := New(X[:5], y[:5], k, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Extend(X[:1], y[:6]); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("Extend by a duplicate without noise: err = %v, want ErrNotPositiveDefinite", err)
	}
	if _, err := g.Extend(X[5:7], y[:6]); err == nil {
		t.Error("Extend with a target short: no error")
	}
}
