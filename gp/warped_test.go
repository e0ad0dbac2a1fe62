package gp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// logNormalDense is log N(v; 0, C) by a dense Cholesky, the reference the
// likelihood tests compare with.
func logNormalDense(t *testing.T, v []float64, C *mat.SymDense) float64 {
	t.Helper()
	var ch mat.Cholesky
	if !ch.Factorize(C) {
		t.Fatal("reference covariance not positive definite")
	}
	var s mat.VecDense
	if err := ch.SolveVecTo(&s, mat.NewVecDense(len(v), v)); err != nil {
		t.Fatal(err)
	}
	return -0.5*mat.Dot(mat.NewVecDense(len(v), v), &s) - 0.5*ch.LogDet() - 0.5*float64(len(v))*log2Pi
}

// TestWarpedLikelihoods compares both likelihoods with dense formulas at
// a few ψ = (θ, u_η): warped, log N(g; 0, A) − Σ log g_i with
// g_i = √(2(ỹ_i − η)); reference, log N(ỹ; 0, (m_g m_gᵀ) ∘ A) with
// m_g = K A⁻¹ g, the covariance built and factorised as it stands.
func TestWarpedLikelihoods(t *testing.T) {
	X, y := randData(12, 2, rand.New(rand.NewPCG(4, 4)))
	ys, _, _ := standardize(y)
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	ymin := slices.Min(ys)
	for _, psi := range [][]float64{
		{math.Log(0.3), math.Log(0.5), 0, math.Log(1e-3), 0},
		{math.Log(0.2), math.Log(0.8), 0.5, math.Log(1e-2), -1.5},
		{math.Log(1.0), math.Log(0.1), -0.3, math.Log(3e-3), 1},
	} {
		kk := k.Clone()
		kk.SetParams(psi[:3])
		noise := math.Exp(psi[3])
		eta := ymin - math.Exp(psi[4])
		g := make([]float64, len(ys))
		var sumLog float64
		for i, v := range ys {
			g[i] = math.Sqrt(2 * (v - eta))
			sumLog += math.Log(g[i])
		}
		A := denseCov(X, kk, noise)
		wantW := logNormalDense(t, g, A) - sumLog
		// m_g = K A⁻¹ g.
		var ach mat.Cholesky
		ach.Factorize(A)
		var alpha, mg mat.VecDense
		_ = ach.SolveVecTo(&alpha, mat.NewVecDense(len(g), g))
		mg.MulVec(kernel.Matrix(kk, X), &alpha)
		C := mat.NewSymDense(len(g), nil)
		for i := range g {
			for j := i; j < len(g); j++ {
				C.SetSym(i, j, mg.AtVec(i)*mg.AtVec(j)*A.At(i, j))
			}
		}
		wantR := logNormalDense(t, ys, C)
		for lik, want := range map[WarpedLikelihood]float64{LikWarped: wantW, LikReference: wantR} {
			got := newWarpedLik(X, ys, k, lik).logLik(psi)
			if math.IsInf(got, 0) || math.Abs(got-want) > 1e-8*(1+math.Abs(want)) {
				t.Errorf("likelihood %d at %v: %v, dense %v", lik, psi, got, want)
			}
		}
	}
}

// bowl is a 1-D function with its minimum −1 at 0.45, quartic there: the
// warped model's positive branch g = √(2(f − η)) is then smooth at η = f*
// (∝ (x − 0.45)²), so the likelihood can favour η near f*. (On a
// quadratic bowl g would be |x − 0.45|, a kink a smooth GP finds
// unlikely, and the η samples settle well below f*; a property of the
// model, not of the sampler.)
func bowl(x float64) float64 { d := (x - 0.45) * (x - 0.45); return 20*d*d - 1 }

// bowlData observes bowl at n points spread over [0, 1] (straddling the
// minimiser, not on it) with noise sd 0.01.
func bowlData(n int, rng *rand.Rand) ([][]float64, []float64) {
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		x := (float64(i) + 0.3) / float64(n)
		X[i] = []float64{x}
		y[i] = bowl(x) + 0.01*rng.NormFloat64()
	}
	return X, y
}

// TestSampleWarped: for both likelihoods, on bowl data that straddle the
// minimum, every η is below the observed minimum, and under a hyperprior
// wide enough to let the data speak (σ_η² = 1; the default 0.1 holds
// ỹ_min − η near one standardised unit) the median η lies within 0.2 sd
// of y of the true minimum value −1. The chain's likelihood is finite;
// each sample's g-GP is a raw GP at its θ that reproduces g at the data;
// the refitted hyperprior is the mean and variance of U; same seed, same
// samples.
func TestSampleWarped(t *testing.T) {
	X, y := bowlData(20, rand.New(rand.NewPCG(7, 7)))
	k := kernel.NewStationary(kernel.RBF, 1, false)
	for _, lik := range []WarpedLikelihood{LikWarped, LikReference} {
		run := func(seed uint64) *Warped {
			w, err := SampleWarped(X, y, WarpedConfig{Kernel: k, Likelihood: lik, M: 200, EtaVar: 1, Rand: rand.New(rand.NewPCG(seed, 1))})
			if err != nil {
				t.Fatal(err)
			}
			return w
		}
		w := run(1)
		if math.IsInf(w.Chain.LogLik, 0) || math.IsNaN(w.Chain.LogLik) {
			t.Errorf("likelihood %d: chain log-likelihood %v", lik, w.Chain.LogLik)
		}
		ymin := slices.Min(y)
		etas := make([]float64, len(w.Samples))
		for j, s := range w.Samples {
			if !(s.Eta < w.YMin) {
				t.Fatalf("likelihood %d: η_%d = %v not below ỹ_min %v", lik, j, s.Eta, w.YMin)
			}
			etas[j] = w.Offset + w.Scale*s.Eta
			if s.Noise != math.Exp(w.Theta[j][2]) || s.G.Noise() != s.Noise {
				t.Fatalf("sample %d: noise %v, θ's %v, g-GP's %v", j, s.Noise, math.Exp(w.Theta[j][2]), s.G.Noise())
			}
			if o, sc := s.G.Standardization(); o != 0 || sc != 1 {
				t.Fatalf("sample %d: g-GP standardised (%v, %v)", j, o, sc)
			}
			if got, want := s.G.Params()[:2], w.Theta[j][:2]; !slices.Equal(got, want) {
				t.Fatalf("sample %d: g-GP kernel params %v, θ %v", j, got, want)
			}
			// With σ_n² ≈ 1e-3 the g-GP nearly interpolates g.
			i := j % len(X)
			if m, _ := s.G.Predict(X[i]); math.Abs(m-math.Sqrt(2*((y[i]-w.Offset)/w.Scale-s.Eta))) > 0.1*max(1, m) {
				t.Errorf("sample %d: m_g(x_%d) = %v, g = %v", j, i, m, math.Sqrt(2*((y[i]-w.Offset)/w.Scale-s.Eta)))
			}
			if math.Abs(w.U[j]-math.Log(w.YMin-s.Eta)) > 1e-12 {
				t.Fatalf("sample %d: u %v, log(ỹ_min − η) %v", j, w.U[j], math.Log(w.YMin-s.Eta))
			}
		}
		slices.Sort(etas)
		med := etas[len(etas)/2]
		_, vy := meanVar(y)
		sd := math.Sqrt(vy)
		t.Logf("likelihood %d: %d steps, %d rejected", lik, w.Chain.Steps, w.Chain.Rejected)
		t.Logf("likelihood %d: y_min %.3f, η (y scale) 10%% %.3f, median %.3f, 90%% %.3f; η prior next N(%.3f, %.3f)",
			lik, ymin, etas[len(etas)/10], med, etas[9*len(etas)/10], w.EtaMean, w.EtaVar)
		if etas[len(etas)-1] >= ymin {
			t.Errorf("likelihood %d: η up to %v, not below y_min %v", lik, etas[len(etas)-1], ymin)
		}
		if math.Abs(med+1) > 0.2*sd {
			t.Errorf("likelihood %d: median η %v, true minimum −1 (sd of y %.3f)", lik, med, sd)
		}
		if m, v := meanVar(w.U); m != w.EtaMean || max(v, minEtaVar) != w.EtaVar {
			t.Errorf("refitted η prior (%v, %v), U has (%v, %v)", w.EtaMean, w.EtaVar, m, v)
		}
		w2 := run(1)
		for j := range w.Samples {
			if w.Samples[j].Eta != w2.Samples[j].Eta || !slices.Equal(w.Theta[j], w2.Theta[j]) {
				t.Fatalf("likelihood %d: same seed, sample %d differs", lik, j)
			}
		}
	}
}

// TestSampleWarpedCarryOver: η is carried on the original scale. Adding a
// new minimum changes ỹ_min and the standardisation; the continued chain
// starts at the same η on the y scale (u_η recomputed), burns in BurnNext,
// and an η no longer below the minimum restarts u_η at μ_η.
func TestSampleWarpedCarryOver(t *testing.T) {
	X, y := bowlData(8, rand.New(rand.NewPCG(8, 8)))
	k := kernel.NewStationary(kernel.RBF, 1, false)
	w, err := SampleWarped(X, y, WarpedConfig{Kernel: k, M: 30, Rand: rand.New(rand.NewPCG(1, 2))})
	if err != nil {
		t.Fatal(err)
	}
	last := w.Chain.U
	if want := w.Offset + w.Scale*(w.YMin-math.Exp(last[len(last)-1])); math.Abs(w.Last.Eta-want) > 1e-12 {
		t.Fatalf("Last.Eta %v, want %v", w.Last.Eta, want)
	}
	X2 := append(slices.Clone(X), []float64{0.45})
	y2 := append(slices.Clone(y), -0.99)
	// Zero burn-in and one draw: the draw is one transition from the start.
	w2, err := SampleWarped(X2, y2, WarpedConfig{Kernel: k, M: 1, Burn: -1, Start: &w.Last, EtaMean: w.EtaMean, EtaVar: w.EtaVar, Rand: rand.New(rand.NewPCG(1, 3))})
	if err != nil {
		t.Fatal(err)
	}
	if w2.Chain.Steps != 1 || w2.Restarted {
		t.Fatalf("continued chain: %d steps, restarted %v", w2.Chain.Steps, w2.Restarted)
	}
	w3, err := SampleWarped(X2, y2, WarpedConfig{Kernel: k, M: 5, Start: &w.Last, EtaMean: w.EtaMean, EtaVar: w.EtaVar, Rand: rand.New(rand.NewPCG(1, 3))})
	if err != nil {
		t.Fatal(err)
	}
	if w3.Chain.Steps != BurnNext+5 {
		t.Errorf("continued chain: %d steps, want %d", w3.Chain.Steps, BurnNext+5)
	}
	// The start itself: build the same sampler and check its start point.
	ys2, off2, sc2 := standardize(y2)
	wl := newWarpedLik(X2, ys2, k, LikWarped)
	u := math.Log(wl.ymin - (w.Last.Eta-off2)/sc2)
	if ll := wl.logLik(append(slices.Clone(w.Last.Theta), u)); math.IsInf(ll, 0) {
		t.Errorf("carried state has likelihood %v on the new data", ll)
	}
	// An η above the new minimum cannot be carried.
	high := WarpedState{Theta: w.Last.Theta, Eta: 0}
	if _, err := SampleWarped(X2, y2, WarpedConfig{Kernel: k, M: 5, Start: &high, Rand: rand.New(rand.NewPCG(1, 3))}); err != nil {
		t.Errorf("η above the minimum: %v", err)
	}
	if _, err := SampleWarped(X2, y2, WarpedConfig{Kernel: k, EtaVar: -1, Rand: rand.New(rand.NewPCG(1, 3))}); err == nil {
		t.Error("a negative η prior variance was accepted")
	}
}

// TestAverage: the mean of Average over Models at θ draws is
// (1/M)Σ_j (offset + scale·k*ᵀK_j⁻¹ỹ) by dense solves (FITBO's
// recommendation mean); PredictGrad matches central differences of mean
// and mixture variance; PredictBatch equals Predict.
func TestAverage(t *testing.T) {
	X, y := randData(10, 2, rand.New(rand.NewPCG(9, 9)))
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	params := [][]float64{
		{math.Log(0.3), math.Log(0.5), 0, math.Log(1e-3)},
		{math.Log(0.6), math.Log(0.2), 0.4, math.Log(1e-2)},
		{math.Log(0.1), math.Log(0.9), -0.5, math.Log(1e-4)},
	}
	models, err := Models(X, y, k, params)
	if err != nil {
		t.Fatal(err)
	}
	a := Average(models)
	ys, off, sc := standardize(y)
	x := []float64{0.37, 0.61}
	var want float64
	for _, p := range params {
		kk := k.Clone()
		kk.SetParams(p[:3])
		want += newDense(X, ys, off, sc, kk, math.Exp(p[3])).mean(x)
	}
	want /= float64(len(params))
	m, v := a.Predict(x)
	if math.Abs(m-want) > 1e-9*(1+math.Abs(want)) {
		t.Errorf("Average mean %v, dense %v", m, want)
	}
	dm, dv := make([]float64, 2), make([]float64, 2)
	m2, v2 := a.PredictGrad(x, dm, dv)
	if m2 != m || v2 != v {
		t.Errorf("PredictGrad (%v, %v), Predict (%v, %v)", m2, v2, m, v)
	}
	const h = 1e-5
	for i := range x {
		xp, xm := slices.Clone(x), slices.Clone(x)
		xp[i] += h
		xm[i] -= h
		mp, vp := a.Predict(xp)
		mm, vm := a.Predict(xm)
		if fd := (mp - mm) / (2 * h); !gradClose(dm[i], fd, 1e-8) {
			t.Errorf("∂μ/∂x_%d = %v, finite differences %v", i, dm[i], fd)
		}
		if fd := (vp - vm) / (2 * h); !gradClose(dv[i], fd, 1e-8) {
			t.Errorf("∂σ²/∂x_%d = %v, finite differences %v", i, dv[i], fd)
		}
	}
	rng := rand.New(rand.NewPCG(1, 9))
	Xt := make([][]float64, 40)
	for i := range Xt {
		Xt[i] = []float64{rng.Float64(), rng.Float64()}
	}
	bm, bv := make([]float64, len(Xt)), make([]float64, len(Xt))
	a.PredictBatch(Xt, bm, bv)
	for i, xt := range Xt {
		pm, pv := a.Predict(xt)
		if math.Abs(pm-bm[i]) > 1e-12*(1+math.Abs(pm)) || math.Abs(pv-bv[i]) > 1e-12*(1+pv) {
			t.Errorf("point %d: batch (%v, %v), Predict (%v, %v)", i, bm[i], bv[i], pm, pv)
		}
	}
}
