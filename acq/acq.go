package acq

import "math"

// Model is what an acquisition needs from a surrogate (gp.GP satisfies it).
// Predictions are of the latent function: mean and variance, without noise.
type Model interface {
	// Predict returns the posterior mean and variance at x.
	Predict(x []float64) (mean, varF float64)
	// PredictGrad also writes ∂μ/∂x into dmean and ∂σ²/∂x into dvar.
	PredictGrad(x, dmean, dvar []float64) (mean, varF float64)
}

// Function is an acquisition function. Eval returns α(x); when grad != nil
// it also writes ∂α/∂x into grad, which must have len(x) elements (grad is
// also used as scratch space for ∂μ/∂x).
type Function interface {
	Eval(m Model, x, grad []float64) float64
}

// BatchModel is a Model that also predicts many points in one call, with
// the values Predict returns (gp.GP satisfies it).
type BatchModel interface {
	Model
	PredictBatch(X [][]float64, mean, varF []float64)
}

// EvalBatch writes f.Eval(m, X[i], nil) into out[i] for every row of X
// (len(out) = len(X)), with one PredictBatch call for all the moments.
// Acquisition optimisers use it to score their raw candidates.
func EvalBatch(f Function, m BatchModel, X [][]float64, out []float64) {
	if len(out) != len(X) {
		panic("acq: EvalBatch: len(out) != len(X)")
	}
	if bf, ok := f.(batchFunction); ok {
		bf.evalBatch(m, X, out)
		return
	}
	mean, varF := make([]float64, len(X)), make([]float64, len(X))
	m.PredictBatch(X, mean, varF)
	p := new(predicted)
	for i, x := range X {
		p.mean, p.varF = mean[i], varF[i]
		out[i] = f.Eval(p, x, nil)
	}
}

// batchFunction is a Function that needs more of the model than the
// moments EvalBatch computes for it (KG: cross-covariances); EvalBatch
// hands it the model itself.
type batchFunction interface {
	evalBatch(m BatchModel, X [][]float64, out []float64)
}

// predicted is a Model whose moments at the one point it is asked about are
// already known; EvalBatch hands it to Function.Eval.
type predicted struct{ mean, varF float64 }

func (p *predicted) Predict([]float64) (mean, varF float64) { return p.mean, p.varF }

func (p *predicted) PredictGrad(x, dmean, dvar []float64) (mean, varF float64) {
	panic("acq: EvalBatch evaluates without gradients")
}

// varFloor is the posterior variance below which σ is taken to be exactly
// zero. A GP returns tiny or slightly negative variances at noise-free
// training points through round-off; treating them as zero gives the exact
// deterministic limit of each acquisition instead of dividing by a
// meaningless σ. The value is tiny so that models on any output scale keep
// their uncertainty.
const varFloor = 1e-300

// moments evaluates the model at x. With grad != nil it stores ∂μ/∂x in grad
// and returns ∂σ/∂x = (∂σ²/∂x)/(2σ) in dsd (dsd is undefined when sd == 0).
// A NaN variance is passed on as a NaN sd so that a broken model shows.
func moments(m Model, x, grad []float64) (mu, sd float64, dsd []float64) {
	var v float64
	if grad == nil {
		mu, v = m.Predict(x)
	} else {
		if len(grad) != len(x) {
			panic("acq: len(grad) != len(x)")
		}
		dsd = make([]float64, len(x))
		mu, v = m.PredictGrad(x, grad, dsd)
	}
	if v <= varFloor {
		return mu, 0, dsd
	}
	sd = math.Sqrt(v)
	for i := range dsd {
		dsd[i] /= 2 * sd
	}
	return mu, sd, dsd
}

// chain writes grad = aMu·∂μ/∂x + aSd·∂σ/∂x, where grad holds ∂μ/∂x on entry.
func chain(grad []float64, aMu float64, dsd []float64, aSd float64) {
	for i := range grad {
		grad[i] = aMu*grad[i] + aSd*dsd[i]
	}
}

// scale multiplies v by a in place; a = 0 clears v even when it holds NaN.
func scale(v []float64, a float64) {
	for i := range v {
		if a == 0 {
			v[i] = 0
		} else {
			v[i] *= a
		}
	}
}
