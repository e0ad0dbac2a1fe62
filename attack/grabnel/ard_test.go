package grabnel

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// spec §4: ARD recovers a sparse weight vector (support identified).
func TestARDSparseRecovery(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d = 100, 20
	truth := map[int]float64{2: 3, 7: -2, 13: 1.5}
	x := make([][]float64, n)
	y := make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.NormFloat64()
		}
		y[i] = 5 + 0.1*rng.NormFloat64()
		for j, w := range truth {
			y[i] += w * x[i][j]
		}
	}
	a := fitARD(x, y)
	for j := range d {
		w, ok := truth[j]
		if ok && !slices.Contains(a.keep, j) {
			t.Errorf("feature %d (weight %v) was pruned; kept %v", j, w, a.keep)
		}
		if math.Abs(a.w[j]-w) > 0.05 {
			t.Errorf("weight %d = %v, want %v ± 0.05", j, a.w[j], w)
		}
	}
	if len(a.keep) > 8 {
		t.Errorf("kept %d of %d features (%v): the prior did not prune", len(a.keep), d, a.keep)
	}
	if a.iters >= ardMaxIter {
		t.Errorf("no convergence in %d iterations", a.iters)
	}
	// The intercept: at φ = 0 the mean is 5.
	if m, v := a.predict(make([]float64, d)); math.Abs(m-5) > 0.05 || v <= 0 || v > 0.01 {
		t.Errorf("predict(0) = %v, %v; want ≈ 5 and a small positive variance", m, v)
	}
	// The noise precision is about 1/0.1².
	if a.alpha < 50 || a.alpha > 200 {
		t.Errorf("α = %v, want about 100", a.alpha)
	}
}

// One feature, reasoned out by hand. With centred x (Σx² = S, Σxy = c,
// Σy² = Y), OLS weight w₀ = c/S, T = c²/S and residual R₀ = Y − T, the
// updates (priors ~1e-6 dropped) have the fixed point
//
//	λ = γ/m², m = γw₀  ⇒  γ = 1 − 1/(αSw₀²) = 1 − u with u = 1/(αT)
//	α = (n − γ)/RSS, RSS = R₀ + T u²  ⇒  u = R₀/(T(n − 1)), α = (n − 1)/R₀.
//
// x = 0, 1, 2, 3 and y = 1, 2, 2, 4: S = 5, c = 4.5, w₀ = 0.9, T = 4.05,
// Y = 4.75, R₀ = 0.7, so α = 30/7, γ = 1 − 0.7/12.15, m = 0.9γ, the mean
// at x = 0 is 2.25 − 1.5m, and Σ = 1/(αS + λ), λ = 1/(w₀²γ).
func TestARDOneFeatureByHand(t *testing.T) {
	a := fitARD([][]float64{{0}, {1}, {2}, {3}}, []float64{1, 2, 2, 4})
	gamma := 1 - 0.7/12.15
	m := 0.9 * gamma
	alpha := 3 / 0.7
	sigma := 1 / (alpha*5 + 1/(0.81*gamma))
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 2e-3*math.Abs(want) {
			t.Errorf("%s = %.6f, want %.6f", what, got, want)
		}
	}
	near("m", a.w[0], m)
	near("α", a.alpha, alpha)
	near("Σ", a.sigma.At(0, 0), sigma)
	mean, v := a.predict([]float64{0})
	near("mean at 0", mean, 2.25-1.5*m)
	near("latent variance at 0", v, 2.25*sigma)
	if mean3, v3 := a.predict([]float64{3}); math.Abs(v3-v) > 1e-12 || math.Abs(mean3-(2.25+1.5*m)) > 1e-2 {
		t.Errorf("at 3: %v, %v; the variance must be symmetric about the mean of x", mean3, v3)
	}
	if mid, v := a.predict([]float64{1.5}); math.Abs(mid-2.25) > 1e-9 || v > 1e-12 {
		t.Errorf("at the mean of x: %v, %v; want the mean of y and zero latent variance", mid, v)
	}
}

// An exact linear fit: the noise precision grows and the line is
// recovered; a constant y gives zero weights and predicts the constant.
func TestARDExactAndConstant(t *testing.T) {
	var x [][]float64
	var y []float64
	for i := range 10 {
		x = append(x, []float64{float64(i)})
		y = append(y, 2*float64(i)+1)
	}
	a := fitARD(x, y)
	if m, v := a.predict([]float64{20}); math.Abs(m-41) > 1e-3 || v > 1e-6 {
		t.Errorf("exact fit at 20: %v, %v; want 41 and ≈ 0", m, v)
	}
	if a.alpha < 1e4 {
		t.Errorf("α = %v on an exact fit, want large", a.alpha)
	}
	c := fitARD([][]float64{{1, 0}, {0, 1}, {1, 1}}, []float64{3, 3, 3})
	if m, _ := c.predict([]float64{5, -2}); math.Abs(m-3) > 1e-6 || c.w[0] != 0 && math.Abs(c.w[0]) > 1e-6 {
		t.Errorf("constant y: predict = %v, weights %v", m, c.w)
	}
	one := fitARD([][]float64{{4, 2}}, []float64{7})
	if m, _ := one.predict([]float64{0, 9}); m != 7 {
		t.Errorf("one observation: predict = %v, want 7", m)
	}
}

// With fewer observations than features Σ comes from the Woodbury
// identity; it must agree with the direct inverse of αΦᵀΦ + diag(λ), and
// m = αΣΦᵀy.
func TestARDWoodbury(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 8, 30
	xc := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			xc.Set(i, j, rng.NormFloat64())
		}
		y[i] = rng.NormFloat64()
	}
	a := &ard{w: make([]float64, d), lambda: make([]float64, d), alpha: 3.7}
	for j := range d {
		a.keep = append(a.keep, j)
		a.lambda[j] = 0.5 + rng.Float64()
	}
	var gram mat.SymDense
	gram.SymOuterK(1, xc.T())
	xty := make([]float64, d)
	for j := range d {
		for i := range n {
			xty[j] += xc.At(i, j) * y[i]
		}
	}
	a.posterior(xc, &gram, xty) // n < k: Woodbury
	prec := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			v := a.alpha * gram.At(i, j)
			if i == j {
				v += a.lambda[i]
			}
			prec.SetSym(i, j, v)
		}
	}
	direct := inverse(prec)
	for i := range d {
		m := 0.0
		for j := range d {
			if math.Abs(a.sigma.At(i, j)-direct.At(i, j)) > 1e-9 {
				t.Fatalf("Σ[%d][%d]: Woodbury %v, direct %v", i, j, a.sigma.At(i, j), direct.At(i, j))
			}
			m += a.alpha * direct.At(i, j) * xty[j]
		}
		if math.Abs(m-a.w[i]) > 1e-9 {
			t.Fatalf("m[%d] = %v, want αΣΦᵀy = %v", i, a.w[i], m)
		}
	}
}
