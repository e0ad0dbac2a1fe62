package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// mixedData draws n points z = [h1, x1, h2, x2]: categorical h1 ∈ {0,1,2},
// h2 ∈ {0..3} (0-based indices as float64) and continuous x ∈ [0,1]², with a
// target that has a per-category offset and a category-dependent trend.
func mixedData(n int, rng *rand.Rand) ([][]float64, []float64) {
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		h1, h2 := rng.IntN(3), rng.IntN(4)
		x1, x2 := rng.Float64(), rng.Float64()
		X[i] = []float64{float64(h1), x1, float64(h2), x2}
		y[i] = float64(h1) - 0.5*float64(h2%2) + math.Sin(3*x1+float64(h2)) + x2*x2 + 0.05*rng.NormFloat64()
	}
	return X, y
}

// casmoKernel is the CASMOPOLITAN-style mixture of an ARD exponentiated
// overlap on the categorical columns and a Matérn-5/2 with unit variance on
// the continuous columns, with λ learned and the outer variance learned.
func casmoKernel() *kernel.Mixture {
	kh := kernel.NewSubset(kernel.NewExpOverlap([]int{0, 1}, true, false), []int{0, 2})
	m52 := kernel.NewStationary(kernel.Matern52, 2, true)
	m52.SetBounds(kernel.Bound{Lo: 0.01, Hi: 0.5}, kernel.Bound{Lo: 1, Hi: 1})
	kx := kernel.NewSubset(m52, []int{1, 3})
	return kernel.NewMixture(kh, kx, 0.5, true)
}

func TestMixtureLogMarginalGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	X, y := mixedData(30, rng)
	for _, tc := range []struct {
		name string
		k    kernel.Kernel
	}{
		{"casmopolitan", casmoKernel()},
		{"cocabo-overlap-fixedvar-half", func() kernel.Kernel {
			m := kernel.NewMixture(
				kernel.NewOverlap([]int{0, 2}),
				kernel.NewSubset(kernel.NewStationary(kernel.Matern52, 2, false), []int{1, 3}),
				0.5, true)
			m.SetFixedVariance(1)
			m.SetSumHalf(true)
			return m
		}()},
	} {
		g, err := Fit(X, y, Config{Kernel: tc.k, Restarts: 1, MaxIter: 2})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		nk := tc.k.NumParams()
		lam := nk - 1 // λ is last unless the outer variance is learned
		if m := tc.k.(*kernel.Mixture); !m.VarianceFixed() {
			lam = nk - 2
		}
		bounds := tc.k.Bounds()
		const h = 1e-5
		for trial := 0; trial < 4; trial++ {
			p := make([]float64, nk+1)
			for j, b := range bounds {
				p[j] = b.Lo + (0.1+0.8*rng.Float64())*(b.Hi-b.Lo) // inside, so λ ± h stays in [0, 1]
			}
			p[nk] = math.Log(1e-3 + 0.1*rng.Float64())
			grad := checkLMLGrad(t, fmt.Sprintf("%s (λ is %d) at %v", tc.name, lam, p), g, p, h)
			if grad[lam] == 0 {
				t.Errorf("%s: ∂LML/∂λ is exactly 0 at %v", tc.name, p)
			}
		}
	}
}

func TestMixtureFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	X, y := mixedData(40, rng)
	k := casmoKernel()
	g, err := Fit(X, y, Config{Kernel: k, Restarts: 5, Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	fit, ok := g.Kernel().(*kernel.Mixture)
	if !ok {
		t.Fatalf("fitted kernel is %T, want *kernel.Mixture", g.Kernel())
	}
	if l := fit.Lambda(); !(l >= 0 && l <= 1) {
		t.Errorf("fitted λ = %v outside [0, 1]", l)
	}
	p := g.Params()
	for j, b := range k.Bounds() {
		if p[j] < b.Lo || p[j] > b.Hi {
			t.Errorf("fitted parameter %d = %v outside %v", j, p[j], b)
		}
	}
	// The optimum must beat the initial parameters (λ = 0.5, default noise).
	start := append(k.Params(nil), math.Log(1e-3))
	l0, err := g.LogMarginalGrad(start, make([]float64, len(start)))
	if err != nil {
		t.Fatal(err)
	}
	if lml := g.LogMarginal(); !(lml >= l0-1e-9) {
		t.Errorf("fitted LML %v below the starting LML %v", lml, l0)
	}
	t.Logf("λ = %.3f, s² = %.3f, LML %.3f (start %.3f)", fit.Lambda(), fit.Variance(), g.LogMarginal(), l0)

	// Posterior-mean gradient through Subset/Mixture InputGrad: continuous
	// columns match finite differences, categorical columns are 0.
	x := []float64{1, 0.3, 2, 0.7}
	dm, dv := make([]float64, 4), make([]float64, 4)
	g.PredictGrad(x, dm, dv)
	const h = 1e-6
	for _, d := range []int{1, 3} {
		xp, xm := slices.Clone(x), slices.Clone(x)
		xp[d] += h
		xm[d] -= h
		mp, vp := g.Predict(xp)
		mm, vm := g.Predict(xm)
		if fd := (mp - mm) / (2 * h); !gradClose(dm[d], fd, 1e-8) {
			t.Errorf("dmean[%d] = %v, fd %v", d, dm[d], fd)
		}
		if fd := (vp - vm) / (2 * h); !gradClose(dv[d], fd, 1e-8) {
			t.Errorf("dvar[%d] = %v, fd %v", d, dv[d], fd)
		}
	}
	if dm[0] != 0 || dm[2] != 0 || dv[0] != 0 || dv[2] != 0 {
		t.Errorf("categorical gradients not 0: dmean %v, dvar %v", dm, dv)
	}
}
