package gp

import "fmt"

// Average is the equal-weight average of M GPs, one per hyper-parameter
// sample [000 Eqs. 2.13–2.14, with the 1/M of spec §3.3]. Its mean
// (1/M)Σ_j μ_j(x) is the posterior mean marginalised over the samples:
// with the zero-mean GPs on ỹ that Models builds, (1/M)Σ_j k*ᵀK_j⁻¹ỹ
// mapped to the original scale, FITBO's recommendation mean (spec
// gp-and-acquisitions §4.6, Decision in the Corrections). Its variance is
// that of the mixture, (1/M)Σ_j (σ_j² + μ_j²) − μ̄². Average satisfies
// acq.BatchModel; a marginalised acquisition averages acquisition values
// instead (acq.Marginal), and only the recommendation uses the mean.
type Average []*GP

func (a Average) check() {
	if len(a) == 0 {
		panic("gp: Average of no models")
	}
}

// Predict returns the mixture's mean and variance at x.
func (a Average) Predict(x []float64) (mean, varF float64) {
	a.check()
	var s2 float64
	for _, g := range a {
		m, v := g.Predict(x)
		mean += m
		s2 += v + m*m
	}
	inv := 1 / float64(len(a))
	mean *= inv
	return mean, max(s2*inv-mean*mean, 0)
}

// PredictGrad is Predict with the gradients ∇μ̄ = (1/M)Σ_j ∇μ_j and
// ∇σ̄² = (1/M)Σ_j (∇σ_j² + 2μ_j∇μ_j) − 2μ̄∇μ̄ written into dmean and dvar
// (each len(x), or nil).
func (a Average) PredictGrad(x, dmean, dvar []float64) (mean, varF float64) {
	a.check()
	d := len(x)
	if (dmean != nil && len(dmean) != d) || (dvar != nil && len(dvar) != d) {
		panic(fmt.Sprintf("gp: Average.PredictGrad gradient buffers of length %d and %d, want %d", len(dmean), len(dvar), d))
	}
	gm, gv := make([]float64, d), make([]float64, d)
	sm, sv := make([]float64, d), make([]float64, d)
	var s2 float64
	for _, g := range a {
		m, v := g.PredictGrad(x, gm, gv)
		mean += m
		s2 += v + m*m
		for i := range sm {
			sm[i] += gm[i]
			sv[i] += gv[i] + 2*m*gm[i]
		}
	}
	inv := 1 / float64(len(a))
	mean *= inv
	varF = s2*inv - mean*mean
	clamped := varF < 0
	varF = max(varF, 0)
	for i := range sm {
		sm[i] *= inv
		if dvar != nil {
			dvar[i] = sv[i]*inv - 2*mean*sm[i]
			if clamped {
				dvar[i] = 0
			}
		}
	}
	if dmean != nil {
		copy(dmean, sm)
	}
	return mean, varF
}

// PredictBatch writes Predict at each row of X into mean and varF.
func (a Average) PredictBatch(X [][]float64, mean, varF []float64) {
	a.check()
	m := len(X)
	if len(mean) != m || len(varF) != m {
		panic(fmt.Sprintf("gp: Average.PredictBatch with %d points but %d means and %d variances", m, len(mean), len(varF)))
	}
	clear(mean)
	clear(varF)
	pm, pv := make([]float64, m), make([]float64, m)
	for _, g := range a {
		g.PredictBatch(X, pm, pv)
		for i := range pm {
			mean[i] += pm[i]
			varF[i] += pv[i] + pm[i]*pm[i]
		}
	}
	inv := 1 / float64(len(a))
	for i := range mean {
		mean[i] *= inv
		varF[i] = max(varF[i]*inv-mean[i]*mean[i], 0)
	}
}
