package acq

// Surface is an acquisition bound to its surrogate: α(x) and, when
// grad != nil, ∂α/∂x written into grad (len(x)), and many points at once.
// A Function on one model becomes a Surface with Bind; an acquisition
// that averages over hyper-parameter samples holds one Surface per sample
// (Average), and one whose samples do not separate (FITBO's mixture
// entropy, spec §4.6) implements Surface itself.
type Surface interface {
	Eval(x, grad []float64) float64
	// EvalBatch writes α(X[i]) into out[i] (len(out) = len(X)).
	EvalBatch(X [][]float64, out []float64)
}

// Bind returns f on model m as a Surface; its EvalBatch is EvalBatch's.
func Bind(f Function, m BatchModel) Surface { return bound{f, m} }

type bound struct {
	f Function
	m BatchModel
}

func (b bound) Eval(x, grad []float64) float64         { return b.f.Eval(b.m, x, grad) }
func (b bound) EvalBatch(X [][]float64, out []float64) { EvalBatch(b.f, b.m, X, out) }

// Average is the mean of its surfaces, α(x) = (1/M) Σ_j α_j(x): an
// acquisition marginalised over M hyper-parameter samples, each α_j
// computed with sample j's posterior (spec §4.6, Decision: average the
// acquisition values, not the predictive moments) [000 Eqs. 2.13–2.14,
// with the 1/M that Eq. 2.14 omits].
type Average []Surface

// Eval implements Surface.
func (a Average) Eval(x, grad []float64) float64 {
	if len(a) == 0 {
		panic("acq: Average of no surfaces")
	}
	var sum float64
	var g []float64
	if grad != nil {
		clear(grad)
		g = make([]float64, len(grad))
	}
	for _, s := range a {
		sum += s.Eval(x, g)
		for i := range g {
			grad[i] += g[i]
		}
	}
	inv := 1 / float64(len(a))
	for i := range grad {
		grad[i] *= inv
	}
	return sum * inv
}

// EvalBatch implements Surface.
func (a Average) EvalBatch(X [][]float64, out []float64) {
	if len(a) == 0 {
		panic("acq: Average of no surfaces")
	}
	clear(out)
	part := make([]float64, len(X))
	for _, s := range a {
		s.EvalBatch(X, part)
		for i, v := range part {
			out[i] += v
		}
	}
	inv := 1 / float64(len(a))
	for i := range out {
		out[i] *= inv
	}
}
