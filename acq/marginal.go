package acq

import (
	"fmt"
	"math"
)

// Marginal is an acquisition marginalised over M hyper-parameter samples
// [000 Eqs. 2.13–2.14; spec §3.3, §4.6]:
//
//	α(x) = (1/M) Σ_j α_j(x),
//
// α_j = f(j) evaluated on models[j], sample j's posterior (for a GP, the
// model at the j-th ESS draw: gp.Models). Averaging the acquisition
// values, not the predictive moments, is the spec's Decision (§4.6); the
// comparators of FITBO (PI, EI, UCB, PES, MES) use the same M draws as
// FITBO (spec Corrections). f(j) is usually the same Function for every
// j (EI{Best: y*} with the observed incumbent, LCB{Kappa: κ}); it takes j
// for acquisitions whose settings depend on the sample.
//
// Averaging LogEI gives the mean of the logs, a geometric mean of EI
// with another maximiser; for the log of the marginalised EI use
// MarginalLog with LogEI.
func Marginal[M BatchModel](f func(j int) Function, models []M) Average {
	a := make(Average, len(models))
	for j, m := range models {
		a[j] = Bind(f(j), m)
	}
	return a
}

// MarginalLog is the log of a marginalised acquisition from its log
// forms (LogEI, LogPI): α(x) = log((1/M) Σ_j exp(α_j(x))), the logarithm
// of Marginal's EI or PI, evaluated without leaving the log scale so that
// it stays finite where every EI_j underflows (spec §4.1). It has the
// maximiser of the marginalised EI.
func MarginalLog[M BatchModel](f func(j int) Function, models []M) LogAverage {
	return LogAverage(Marginal(f, models))
}

// LogAverage is log((1/M) Σ_j exp(α_j(x))) over surfaces α_j that are
// logarithms. Its gradient is Σ_j w_j ∇α_j with w_j = exp(α_j − α)/M.
// Surfaces at −Inf carry no weight; α is −Inf only when all are.
type LogAverage []Surface

// Eval implements Surface.
func (a LogAverage) Eval(x, grad []float64) float64 {
	if len(a) == 0 {
		panic("acq: LogAverage of no surfaces")
	}
	vals := make([]float64, len(a))
	var grads [][]float64
	if grad != nil {
		grads = make([][]float64, len(a))
	}
	top := math.Inf(-1)
	for j, s := range a {
		var g []float64
		if grad != nil {
			g = make([]float64, len(grad))
			grads[j] = g
		}
		vals[j] = s.Eval(x, g)
		top = max(top, vals[j])
	}
	if grad != nil {
		clear(grad)
	}
	if math.IsInf(top, -1) {
		return top
	}
	var sum float64
	for _, v := range vals {
		sum += math.Exp(v - top) // 0 for −Inf
	}
	for j, v := range vals {
		if w := math.Exp(v-top) / sum; grad != nil && w > 0 {
			for i, gi := range grads[j] {
				grad[i] += w * gi
			}
		}
	}
	return top + math.Log(sum/float64(len(a)))
}

// EvalBatch implements Surface.
func (a LogAverage) EvalBatch(X [][]float64, out []float64) {
	if len(a) == 0 {
		panic("acq: LogAverage of no surfaces")
	}
	if len(out) != len(X) {
		panic(fmt.Sprintf("acq: LogAverage.EvalBatch with %d points and %d outputs", len(X), len(out)))
	}
	vals := make([][]float64, len(a))
	for j, s := range a {
		vals[j] = make([]float64, len(X))
		s.EvalBatch(X, vals[j])
	}
	for i := range out {
		top := math.Inf(-1)
		for j := range vals {
			top = max(top, vals[j][i])
		}
		if math.IsInf(top, -1) {
			out[i] = top
			continue
		}
		var sum float64
		for j := range vals {
			sum += math.Exp(vals[j][i] - top)
		}
		out[i] = top + math.Log(sum/float64(len(a)))
	}
}
