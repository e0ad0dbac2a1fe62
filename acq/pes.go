package acq

import (
	"fmt"
	"math"
)

// DefaultPESSamples is PES-lite's default number J of minimiser samples
// (spec §4.5: J = 10).
const DefaultPESSamples = 10

// CovModel is a BatchModel that also gives the posterior covariance of f
// between two points and the observation noise, both on the original y
// scale (gp.GP satisfies it). PostCov writes k_post(A[i], x) into out[i];
// PostCovGrad returns k_post(a, x) and writes ∂k_post(a, x)/∂x into grad.
type CovModel interface {
	BatchModel
	PostCov(A [][]float64, x []float64, out []float64)
	PostCovGrad(a, x, grad []float64) float64
	NoiseVarY() float64
}

// PESLite is a light predictive entropy search [spec §4.5]. Decision: a
// deviation from the EP-based PES that seed 000 §3.3 uses as a baseline
// (Hernández-Lobato et al. 2014), which conditions on x* being a minimum
// through its gradient and Hessian and so needs kernel second derivatives
// and spectral densities. PES-lite keeps only the condition that
// d = f(x) − f(x*_j) ≥ 0 for each sample x*_j of the minimiser (Thompson
// minimisers, ThompsonPath). Under the posterior, d ~ N(m_d, s_d²) with
// m_d = μ(x) − μ(x*_j), s_d² = σ²(x) + σ²(x*_j) − 2k_post(x, x*_j); with
// β = m_d/s_d, λ = φ(β)/Φ(β) and c = σ²(x) − k_post(x, x*_j) = Cov(f(x), d),
// the variance of f(x) given d ≥ 0 is
//
//	v_j = σ²(x) − (c²/s_d²)·λ(λ + β),
//
// and, each conditional predictive taken as Gaussian with that variance,
//
//	α = ½ log(σ²(x) + σ_n²) − (1/J) Σ_j ½ log(v_j + σ_n²).
//
// α ≥ 0 by construction: λ(λ + β) ∈ (0, 1) is one minus the variance of a
// truncated standard normal, and c²/s_d² ≤ σ²(x) (Cauchy–Schwarz), so
// 0 ≤ v_j ≤ σ²(x). v_j is evaluated as (σ²(x) − c²/s_d²) + (c²/s_d²)·V(β),
// V = 1 − λ(λ + β), with both parts non-negative and V free of cancellation
// for β ≪ 0, and floored at 1e-12·σ²(x). Where x is so close to x*_j that
// s_d² ≤ 1e-12·(σ²(x) + σ²(x*_j)), d carries no information and v_j =
// σ²(x). With σ²(x) = 0, α = 0.
//
// PESLite acts on one model (a Surface); marginalised over hyper-parameter
// samples it is an Average of one PESLite per sample, each with minimisers
// from that sample's paths.
type PESLite struct {
	m     CovModel
	xs    [][]float64 // the minimiser samples x*_j
	mus   []float64   // μ(x*_j)
	vs    []float64   // σ²(x*_j)
	noise float64     // σ_n² on the y scale
}

// NewPESLite returns PES-lite on model m with the minimiser samples
// minimisers (at least one). It panics if there are none.
func NewPESLite(m CovModel, minimisers [][]float64) *PESLite {
	if len(minimisers) == 0 {
		panic("acq: PES-lite with no minimiser samples")
	}
	p := &PESLite{m: m, xs: minimisers, mus: make([]float64, len(minimisers)), vs: make([]float64, len(minimisers)), noise: m.NoiseVarY()}
	m.PredictBatch(minimisers, p.mus, p.vs)
	return p
}

// Eval implements Surface, with the analytic gradient through ∂μ/∂x,
// ∂σ²/∂x and ∂k_post(x*_j, x)/∂x.
func (p *PESLite) Eval(x, grad []float64) float64 {
	k := make([]float64, len(p.xs))
	if grad == nil {
		mu, v := p.m.Predict(x)
		p.m.PostCov(p.xs, x, k)
		return p.value(mu, v, k, nil, nil, nil, nil)
	}
	d := len(x)
	if len(grad) != d {
		panic(fmt.Sprintf("acq: PES-lite gradient buffer of length %d, want %d", len(grad), d))
	}
	gm, gv := make([]float64, d), make([]float64, d)
	mu, v := p.m.PredictGrad(x, gm, gv)
	gk := make([][]float64, len(p.xs))
	for j, xs := range p.xs {
		gk[j] = make([]float64, d)
		k[j] = p.m.PostCovGrad(xs, x, gk[j])
	}
	return p.value(mu, v, k, gm, gv, gk, grad)
}

// EvalBatch implements Surface: one PredictBatch for the moments, then one
// PostCov (O(n² + Jn)) per point.
func (p *PESLite) EvalBatch(X [][]float64, out []float64) {
	if len(out) != len(X) {
		panic("acq: PES-lite EvalBatch: len(out) != len(X)")
	}
	mean, varF := make([]float64, len(X)), make([]float64, len(X))
	p.m.PredictBatch(X, mean, varF)
	k := make([]float64, len(p.xs))
	for i, x := range X {
		p.m.PostCov(p.xs, x, k)
		out[i] = p.value(mean[i], varF[i], k, nil, nil, nil, nil)
	}
}

// value returns α from μ(x), σ²(x) and k_post(x*_j, x); with grad != nil it
// also writes ∂α/∂x from their gradients gm, gv and gk[j].
func (p *PESLite) value(mu, v float64, k []float64, gm, gv []float64, gk [][]float64, grad []float64) float64 {
	if !(v > varFloor) {
		scale(grad, 0)
		return 0
	}
	var gvj, gS, gq, gb []float64
	if grad != nil {
		d := len(grad)
		gvj, gS, gq, gb = make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		for i := range grad {
			grad[i] = gv[i] / (2 * (v + p.noise))
		}
	}
	var sum float64
	invJ := 1 / float64(len(p.xs))
	for j := range p.xs {
		vj := v
		if grad != nil {
			copy(gvj, gv)
		}
		s2 := v + p.vs[j] - 2*k[j]
		if s2 > 1e-12*(v+p.vs[j]) {
			sd := math.Sqrt(s2)
			beta := (mu - p.mus[j]) / sd
			c := v - k[j]
			q := c * c / s2
			cond := v - q
			tv, dtv := truncVar(beta)
			vj = math.Max(cond, 0) + q*tv
			floored := vj < 1e-12*v
			vj = math.Max(vj, 1e-12*v)
			if grad != nil {
				for i := range gvj {
					gS[i] = gv[i] - 2*gk[j][i]
					gc := gv[i] - gk[j][i]
					gq[i] = 2*c*gc/s2 - q/s2*gS[i]
					gb[i] = gm[i]/sd - beta/(2*s2)*gS[i]
					gvj[i] = gq[i]*tv + q*dtv*gb[i]
					if cond > 0 {
						gvj[i] += gv[i] - gq[i]
					}
					if floored {
						gvj[i] = 0
					}
				}
			}
		}
		sum += 0.5 * math.Log(vj+p.noise)
		for i := range grad {
			grad[i] -= invJ * gvj[i] / (2 * (vj + p.noise))
		}
	}
	return 0.5*math.Log(v+p.noise) - invJ*sum
}

// truncVar returns V(β) = 1 − λ(λ + β), λ = φ(β)/Φ(β), the variance of a
// standard normal truncated to Z ≥ −β, and its derivative
// V'(β) = −λ(1 − u(u + λ)), u = λ + β. For β < −4, with t = −β and
// Laplace's D = t + e (see millsTail), λ = t + 1/D and u = 1/D exactly, so
//
//	V = (eD − 1)/D²,   V' = λ(6/(T₃T₄) − e²)/D²,
//
// without the cancellation of 1 − λu as V → 1/t².
func truncVar(beta float64) (v, dv float64) {
	if beta >= -millsSplit {
		lam := invMills(beta)
		u := lam + beta
		return 1 - lam*u, -lam * (1 - u*(u+lam))
	}
	t := -beta
	t3, t4 := millsTail(t)
	e := 2 / t3
	d := t + e
	lam := t + 1/d
	return (e*d - 1) / (d * d), lam * (6/(t3*t4) - e*e) / (d * d)
}
