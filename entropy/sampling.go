package entropy

import (
	"math"
	"math/rand/v2"
)

// logDensity is log q(y), by log-sum-exp so that it stays finite far in
// the tails where q underflows.
func (p comps) logDensity(y float64) float64 {
	top := math.Inf(-1)
	for j, m := range p.mu {
		d := y - m
		top = max(top, math.Log(p.c[j])-p.a[j]*d*d)
	}
	if math.IsInf(top, -1) {
		return top
	}
	var s float64
	for j, m := range p.mu {
		d := y - m
		s += math.Exp(math.Log(p.c[j]) - p.a[j]*d*d - top)
	}
	return top + math.Log(s)
}

// MonteCarlo returns the Monte Carlo estimate of H[q] with n samples from
// each component [000 Eq. 3.13]:
//
//	H ≈ −Σ_j w_j (1/n) Σ_i log q(y_ij),  y_ij ~ N(μ_j, v_j).
//
// The cost is O(M²n) density terms for M components.
func (q Mixture) MonteCarlo(n int, rng *rand.Rand) float64 {
	if n < 1 {
		panic("entropy: MonteCarlo needs n ≥ 1")
	}
	w := q.weights()
	p := q.prepare()
	lc := make([]float64, len(p.c))
	for j, c := range p.c {
		lc[j] = math.Log(c)
	}
	e := make([]float64, len(p.c))
	var h float64
	for j, mu := range q.Mean {
		sd := math.Sqrt(q.Var[j])
		var s float64
		for range n {
			y := mu + sd*rng.NormFloat64()
			s += p.logDensityBuf(y, lc, e)
		}
		h -= w[j] * s / float64(n)
	}
	return h
}

// logDensityBuf is logDensity with the log-coefficients precomputed and a
// scratch buffer for the exponents.
func (p comps) logDensityBuf(y float64, lc, e []float64) float64 {
	top := math.Inf(-1)
	for j, m := range p.mu {
		d := y - m
		e[j] = lc[j] - p.a[j]*d*d
		top = max(top, e[j])
	}
	var s float64
	for _, x := range e {
		s += math.Exp(x - top)
	}
	return top + math.Log(s)
}

// Huber returns the second-order Taylor approximation of H[q] of Huber
// et al. 2008 [000 Eqs. 3.11–3.12; spec §5.4]: log q is expanded about
// each component mean,
//
//	H ≈ −Σ_j w_j log q(μ_j) − Σ_j (w_j v_j / 2) F(μ_j),
//
// F = (log q)” = q⁻¹ Σ_i w_i v_i⁻¹ [q⁻¹(y − μ_i) q'(y) + v_i⁻¹(y − μ_i)² − 1]
// N(y; μ_i, v_i). Exact for one Gaussian; O(M²). The sums are scaled by
// the largest term so that points where q underflows keep their ratios.
func (q Mixture) Huber() float64 {
	w := q.weights()
	p := q.prepare()
	m := len(w)
	e := make([]float64, m)
	var h float64
	for j, y := range q.Mean {
		top := math.Inf(-1)
		for i, mu := range p.mu {
			d := y - mu
			e[i] = math.Log(p.c[i]) - p.a[i]*d*d
			top = max(top, e[i])
		}
		// Scaled by exp(−top): s0 = q, s1 = q', s2 = q''.
		var s0, s1, s2 float64
		for i, mu := range p.mu {
			n := math.Exp(e[i] - top)
			d, iv := y-mu, 2*p.a[i]
			s0 += n
			s1 -= n * d * iv
			s2 += n * (d*d*iv - 1) * iv
		}
		logq := top + math.Log(s0)
		f := s2/s0 - (s1/s0)*(s1/s0)
		h -= w[j] * (logq + 0.5*q.Var[j]*f)
	}
	return h
}
