package acq

import "math"

// Feasible is the probability that a black-box constraint c(x) ≤ 0 holds
// under a GP posterior on c, P(x) = Φ(−μ(x)/σ(x)) (Gardner et al. 2014;
// Gelbart et al. 2014). It is a Penalty: LogEval returns
// log P, through LogNormCDF, so that it stays finite and keeps a gradient
// far inside the infeasible region, where P underflows to zero. With
// σ = 0, P is 1 where μ ≤ 0 and 0 elsewhere, with a zero gradient.
//
// A classifier of computability is the same factor: a GP regression on the
// labels −1 (computable) and +1 (failed), least-squares classification
// [Rasmussen & Williams 2006, §6.5], holds "c(x) ≤ 0" where a trial
// computes.
type Feasible struct{ Model Model }

// LogEval implements Penalty. With z = −μ/σ,
// ∂log Φ(z)/∂x = (φ(z)/Φ(z))·(−∂μ/∂x + (μ/σ)∂σ/∂x)/σ.
func (f Feasible) LogEval(x, grad []float64) float64 {
	mu, sd, dsd := moments(f.Model, x, grad)
	if sd == 0 {
		scale(grad, 0)
		if mu <= 0 {
			return 0
		}
		return math.Inf(-1)
	}
	z := -mu / sd
	if grad != nil {
		r := invMills(z) / sd
		chain(grad, -r, dsd, r*mu/sd)
	}
	return LogNormCDF(z)
}

// Constrained is an acquisition weighted by the probability that x is
// feasible, in log space:
//
//	α̃(x) = log g(α(x)) + Σ_j log P_j(x),
//
// the log of the constrained EI of Gardner et al. 2014 and Gelbart et
// al. 2014, EI(x)·Π_j P_j(x), when Base is LogEI and
// Positivity is nil (Base then is a log acquisition already, g(α) = e^α);
// the sum of logs stays finite where the product underflows (Ament et
// al. 2023 for log-EI; spec gp-and-acquisitions §4.1). A confidence bound,
// which can be negative, is made positive first by g = Softplus as for
// the local penalisers [002 Eq. 4.17], on the model's standardised scale
// (Standardised). With Base nil, α̃ is the log probability of
// feasibility alone: the acquisition while no feasible point has been
// observed, since there is no incumbent to improve on (Gardner et al.
// 2014; Gelbart et al. 2014).
type Constrained struct {
	Base        Function   // a log acquisition (LogEI, LogPI), or one made positive by Positivity; nil for feasibility alone
	Positivity  Positivity // nil when Base is a log acquisition
	Feasibility []Penalty  // one factor per constraint (Feasible), and one for computability
}

// Eval implements Function.
func (c Constrained) Eval(m Model, x, grad []float64) float64 {
	var v float64
	switch {
	case c.Base == nil:
		scale(grad, 0)
	case c.Positivity == nil:
		v = c.Base.Eval(m, x, grad)
	default:
		g, dg := c.Positivity.Apply(c.Base.Eval(m, x, grad))
		scale(grad, dg/g)
		v = math.Log(g)
	}
	return v + addLogFeasibility(c.Feasibility, x, grad)
}

// addLogFeasibility returns Σ_j log P_j(x) of the factors and, with
// grad != nil, adds its gradient to grad.
func addLogFeasibility(factors []Penalty, x, grad []float64) float64 {
	var v float64
	var pg []float64
	if grad != nil {
		pg = make([]float64, len(x))
	}
	for _, f := range factors {
		v += f.LogEval(x, pg)
		for i := range pg {
			grad[i] += pg[i]
		}
	}
	return v
}

// Standardised applies a Positivity to (α + Offset)/Scale: an acquisition
// in the objective's units, such as the confidence bound κσ − μ, taken to
// the scale of a GP fitted to standardised targets (gp.GP.Standardization
// gives Offset and Scale), so that Softplus bends it where its values
// lie and not wherever the objective's units put them.
type Standardised struct {
	Positivity
	Offset, Scale float64
}

// Apply implements Positivity.
func (s Standardised) Apply(a float64) (v, dv float64) {
	v, dv = s.Positivity.Apply((a + s.Offset) / s.Scale)
	return v, dv / s.Scale
}
