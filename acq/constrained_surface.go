package acq

import "math"

// ConstrainedSurface weights an acquisition surface whose values are
// non-negative, an information gain (FITBO, MES, PES, KG) or an average
// of such, by the probability of feasibility in log space:
//
//	α̃(x) = log α(x) + Σ_j log P_j(x),
//
// Constrained's form for a Surface (Gardner et al. 2014 multiply EI by
// Π_j P_j; applying it to an information gain is a boa extension,
// docs/infotheoretic.md). α is floored at the smallest normal float so
// that a point with nothing left to learn keeps the factors' gradient.
// With Infeasible (no feasible observation yet), α̃ is the log
// probability of feasibility alone, as Constrained without a Base.
type ConstrainedSurface struct {
	Base        Surface
	Feasibility []Penalty
	Infeasible  bool
}

// Eval implements Surface.
func (c ConstrainedSurface) Eval(x, grad []float64) float64 {
	var v float64
	if c.Infeasible {
		scale(grad, 0)
	} else {
		a := c.Base.Eval(x, grad)
		if a < floorGain {
			a = floorGain
			scale(grad, 0)
		}
		scale(grad, 1/a)
		v = math.Log(a)
	}
	return v + addLogFeasibility(c.Feasibility, x, grad)
}

// EvalBatch implements Surface.
func (c ConstrainedSurface) EvalBatch(X [][]float64, out []float64) {
	if c.Infeasible {
		clear(out)
	} else {
		c.Base.EvalBatch(X, out)
		for i, a := range out {
			out[i] = math.Log(math.Max(a, floorGain))
		}
	}
	for i, x := range X {
		out[i] += addLogFeasibility(c.Feasibility, x, nil)
	}
}

// floorGain is the least information gain ConstrainedSurface takes the
// log of.
const floorGain = 0x1p-1022
