package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// TestRandFuncReducesToK: with v_x = 0 the RandFunc covariances are the RBF
// kernel's (Eq. 3.31 as v_x → 0; spec §9).
func TestRandFuncReducesToK(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	X, y := testData(rng, 10, 3)
	k := chapterKernel(kernel.RBF, 3, y)
	p := []float64{math.Log(0.4), math.Log(0.7), math.Log(1.1), math.Log(1.9)}
	k.SetParams(p)
	cov := randFuncCov(X, 0)
	for i := range X {
		for j := range X {
			if got, want := cov.train(p, i, j, nil), k.Eval(X[i], X[j]); relDiff(got, want) > 1e-14 {
				t.Errorf("train(%d, %d) = %v, k = %v", i, j, got, want)
			}
		}
		x := []float64{0.1, -0.2, 0.3}
		if got, want := cov.cross(p, i, x), k.Eval(X[i], x); relDiff(got, want) > 1e-14 {
			t.Errorf("cross(%d) = %v, k = %v", i, got, want)
		}
	}
}

// TestRandFuncDerivs checks T2 = Tr ∂²k/∂x∂xᵀ and T4 = Σ_ab ∂⁴k/∂x_a²∂y_b²
// against central differences of the RBF kernel (spec §9).
func TestRandFuncDerivs(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	cases := []struct {
		name string
		p    []float64
		x, y []float64
	}{
		{"1-D", []float64{math.Log(0.6), math.Log(1.3)}, []float64{0.2}, []float64{-0.3}},
		{"1-D same point", []float64{math.Log(0.8), 0}, []float64{0.1}, []float64{0.1}},
		{"2-D", []float64{math.Log(0.5), math.Log(0.9), math.Log(0.7)}, []float64{0.3, -0.1}, []float64{-0.2, 0.4}},
		{"3-D", []float64{math.Log(0.7), math.Log(1.2), math.Log(0.6), 0}, nil, nil},
	}
	for _, c := range cases {
		d := len(c.p) - 1
		if c.x == nil {
			c.x, c.y = make([]float64, d), make([]float64, d)
			for i := range d {
				c.x[i], c.y[i] = 2*rng.Float64()-1, 2*rng.Float64()-1
			}
		}
		k := kernel.NewStationary(kernel.RBF, d, true)
		k.SetParams(c.p)
		ev := func(x, y []float64) float64 { return k.Eval(x, y) }
		const h = 1e-2
		// Second difference in x_a of any function of x.
		d2 := func(f func(x []float64) float64, x []float64, a int) float64 {
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[a] += h
			xm[a] -= h
			return (f(xp) - 2*f(x) + f(xm)) / (h * h)
		}
		var t2, t4 float64
		for a := range d {
			t2 += d2(func(x []float64) float64 { return ev(x, c.y) }, c.x, a)
			for b := range d {
				t4 += d2(func(x []float64) float64 {
					return d2(func(y []float64) float64 { return ev(x, y) }, c.y, b)
				}, c.x, a)
			}
		}
		kv, gt2, gt4 := rbfDerivs(c.p, c.x, c.y)
		if relDiff(kv, ev(c.x, c.y)) > 1e-14 {
			t.Errorf("%s: k = %v, kernel %v", c.name, kv, ev(c.x, c.y))
		}
		scale := math.Max(1, math.Abs(t4))
		if math.Abs(gt2-t2) > 1e-3*math.Max(1, math.Abs(t2)) {
			t.Errorf("%s: T2 = %v, finite differences %v", c.name, gt2, t2)
		}
		if math.Abs(gt4-t4) > 2e-3*scale {
			t.Errorf("%s: T4 = %v, finite differences %v", c.name, gt4, t4)
		}
	}
}

// TestRandFuncFit: the model fits the chapter's 1-D task, its gradient is
// the central difference (no analytic one), and it reports its flags.
func TestRandFuncFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	X, y := make([][]float64, 30), make([]float64, 30)
	for i := range X {
		x := 2*rng.Float64() - 1
		X[i] = []float64{x}
		y[i] = sinTask(x+0.05*rng.NormFloat64()) + 0.001*rng.NormFloat64()
	}
	m := NewRandFunc(Config{Rand: rand.New(rand.NewPCG(1, 1))})
	if err := m.Fit(X, y, []float64{0.05}); err != nil {
		t.Fatal(err)
	}
	if math.IsNaN(m.LogMarginalLikelihood()) {
		t.Error("LML is NaN")
	}
	for _, x := range []float64{-0.5, 0.5} {
		mu, v := m.Predict([]float64{x})
		if math.IsNaN(mu) || !(v > 0) {
			t.Errorf("Predict(%v) = %v, %v", x, mu, v)
		}
	}
	t.Logf("LML %.2f, noise %.3g, failures %d, flagged %v, params %.3g", m.LogMarginalLikelihood(), m.NoiseVar(), m.CholeskyFailures(), m.Flagged(), m.Params())
}

// TestIsotropic: v_x is the mean of the per-dimension variances.
func TestIsotropic(t *testing.T) {
	if got := isotropic([]float64{0.1, 0.1}); math.Abs(got-0.01) > 1e-15 {
		t.Errorf("isotropic(0.1, 0.1) = %v", got)
	}
	if got := isotropic([]float64{0.1, 0.3}); math.Abs(got-0.05) > 1e-15 {
		t.Errorf("isotropic(0.1, 0.3) = %v", got)
	}
}
