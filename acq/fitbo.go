package acq

import (
	"runtime"
	"sync"

	"github.com/boaopt/boa/entropy"
)

// FITBOSample is one joint hyper-parameter sample ψ_j = (θ_j, η_j) of
// FITBO [000 §3.2, Eqs. 3.4–3.9; spec §4.6].
type FITBOSample struct {
	// G is the GP on g_i = √(2(ỹ_i − η_j)) with kernel θ_j, fitted raw
	// (zero prior mean, not standardised), so that Predict returns the
	// posterior m_g(x) and K_g(x, x) of Eq. 3.5 directly. A G that is also
	// a BatchModel (gp.GP is) is predicted in one call by EvalBatch.
	G Model
	// Eta is η_j, the sample's minimum value of f (η_j < min ỹ).
	Eta float64
	// Noise is the sample's noise variance σ_n²(j) on the scale of ỹ.
	Noise float64
}

// FITBO is fast information-theoretic Bayesian optimisation's acquisition,
// the mutual information between y at x and the minimum value, marginalised
// over M samples [000 Ch. 3, Alg. 3, Eqs. 3.3–3.10; App. C.1; spec §4.6].
// Sample j linearises f = η_j + ½g² about g = m_g(x) (Eqs. 3.6–3.8):
//
//	μ_j = η_j + ½ m_g²,   v_j = m_g² K_g(x, x) + σ_n²(j),
//
// the noise counted once, on y (spec §4.6, Decision: noise placement), and
//
//	α(x) = H[(1/M) Σ_j N(y; μ_j, v_j)] − (1/M) Σ_j ½ log(2πe v_j)   (Eq. 3.10)
//
// with the mixture entropy by adaptive Simpson quadrature (FITBO) or by
// moment matching (FITBO-MM), ½ log(2πe v_G) with v_G the mixture's
// variance [000 Eqs. 3.14–3.15]. α ≥ 0 (the entropy is concave); the MM
// value is an upper bound on the quadrature value.
//
// Eval's gradient is App. C.1's: per sample ∂μ_j/∂x = m_g ∂m_g/∂x and
// ∂v_j/∂x = m_g² ∂K_g/∂x + 2K_g m_g ∂m_g/∂x (Eqs. C.2–C.4); for
// quadrature the derivative of the entropy is integrated with the same
// adaptive rule (entropy.Mixture.QuadratureGrad), for MM it is closed form,
// ∂α/∂x = ∂v_G/(2v_G) − (1/(2M)) Σ_j ∂v_j/v_j (Eqs. C.5–C.7, with 1/v_j as
// the spec's Eq. C.5 erratum has it, not 1/(v_j + σ_n²)).
//
// A K_g below zero (round-off at a training point) is taken as 0.
type FITBO struct {
	Samples []FITBOSample
	// MomentMatching selects FITBO-MM.
	MomentMatching bool
	// Tol is the quadrature's absolute tolerance; 0 means
	// entropy.DefaultTol = 1e-4 [spec §5.1, Decision].
	Tol float64
}

// fitboMoments returns μ_j and v_j from sample s's g-posterior (m, k).
func fitboMoments(s FITBOSample, m, k float64) (mu, v float64) {
	k = max(k, 0)
	return s.Eta + 0.5*m*m, m*m*k + s.Noise
}

// value is α from the per-sample moments (mu, v are scratch the caller owns).
func (a FITBO) value(mu, v []float64) float64 {
	var mean float64
	for _, x := range v {
		mean += entropy.GaussianEntropy(x)
	}
	mean /= float64(len(v))
	q := entropy.Mixture{Mean: mu, Var: v}
	if a.MomentMatching {
		return q.MomentMatching() - mean
	}
	return q.Quadrature(a.Tol) - mean
}

// Eval implements Surface.
func (a FITBO) Eval(x, grad []float64) float64 {
	M := len(a.Samples)
	if M == 0 {
		panic("acq: FITBO with no samples")
	}
	mu, v := make([]float64, M), make([]float64, M)
	if grad == nil {
		for j, s := range a.Samples {
			m, k := s.G.Predict(x)
			mu[j], v[j] = fitboMoments(s, m, k)
		}
		return a.value(mu, v)
	}
	d := len(x)
	if len(grad) != d {
		panic("acq: len(grad) != len(x)")
	}
	dmu, dv := make([][]float64, M), make([][]float64, M)
	dm, dk := make([]float64, d), make([]float64, d)
	for j, s := range a.Samples {
		m, k := s.G.PredictGrad(x, dm, dk)
		if k < 0 {
			clear(dk)
		}
		mu[j], v[j] = fitboMoments(s, m, k)
		k = max(k, 0)
		dmu[j], dv[j] = make([]float64, d), make([]float64, d)
		for i := range d {
			dmu[j][i] = m * dm[i]              // Eq. C.2
			dv[j][i] = m*m*dk[i] + 2*k*m*dm[i] // Eqs. C.3–C.4
		}
	}
	// The mean of the components' entropies and its gradient,
	// (1/(2M)) Σ_j ∂v_j/v_j [Eq. C.5 with the spec's erratum].
	var mean float64
	clear(grad)
	for j := range M {
		mean += entropy.GaussianEntropy(v[j])
		for i := range d {
			grad[i] -= 0.5 * dv[j][i] / v[j]
		}
	}
	mean /= float64(M)
	q := entropy.Mixture{Mean: mu, Var: v}
	var h float64
	hg := make([]float64, d)
	if a.MomentMatching {
		// v_G = (1/M) Σ (v_j + (μ_j − m_G)²), so ∂v_G = (1/M) Σ (∂v_j +
		// 2(μ_j − m_G) ∂μ_j), the spec's form with Σ (μ_j − m_G) = 0 used
		// (Eqs. C.6–C.7).
		mG, vG := q.Moments()
		for j := range M {
			for i := range d {
				hg[i] += dv[j][i] + 2*(mu[j]-mG)*dmu[j][i]
			}
		}
		for i := range d {
			hg[i] /= 2 * vG * float64(M)
		}
		h = entropy.GaussianEntropy(vG)
	} else {
		h = q.QuadratureGrad(dmu, dv, a.Tol, hg)
	}
	for i := range d {
		grad[i] = hg[i] + grad[i]/float64(M)
	}
	return h - mean
}

// fitboBlock bounds the points EvalBatch holds moments for at once.
const fitboBlock = 256

// EvalBatch implements Surface: one PredictBatch per sample and block of
// points when the sample's G is a BatchModel, else Predict per point.
func (a FITBO) EvalBatch(X [][]float64, out []float64) {
	if len(out) != len(X) {
		panic("acq: EvalBatch: len(out) != len(X)")
	}
	M := len(a.Samples)
	if M == 0 {
		panic("acq: FITBO with no samples")
	}
	n := min(len(X), fitboBlock)
	mean, varF := make([]float64, n), make([]float64, n)
	mu, v := make([]float64, n*M), make([]float64, n*M) // point-major
	for lo := 0; lo < len(X); lo += fitboBlock {
		blk := X[lo:min(lo+fitboBlock, len(X))]
		b := len(blk)
		for j, s := range a.Samples {
			if bm, ok := s.G.(BatchModel); ok {
				bm.PredictBatch(blk, mean[:b], varF[:b])
			} else {
				for i, x := range blk {
					mean[i], varF[i] = s.G.Predict(x)
				}
			}
			for i := range b {
				mu[i*M+j], v[i*M+j] = fitboMoments(s, mean[i], varF[i])
			}
		}
		parallel(b, !a.MomentMatching, func(i int) {
			out[lo+i] = a.value(mu[i*M:(i+1)*M], v[i*M:(i+1)*M])
		})
	}
}

// parallel calls fn(i) for every i < n, on every core when spread (the
// quadrature's entropy, about a millisecond a point at M = 50, is worth
// it; moment matching is not). Each call writes only its own outputs.
func parallel(n int, spread bool, fn func(i int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if !spread || w < 2 {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for k := range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := k; i < n; i += w {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
