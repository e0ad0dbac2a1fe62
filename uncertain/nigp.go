package uncertain

import (
	"math"
	"slices"

	"github.com/boaopt/boa/kernel"
)

// NIGPRounds is the chapter's fixed number of slope recursions [002 §3.4,
// §3.7].
const NIGPRounds = 20

// NIGP is the noisy-input GP of McHutchon & Rasmussen (2011) [002 §3.4,
// Eqs. 3.32–3.36; spec §4]: a first-order expansion turns the input noise
// into per-point output noise ∂_fᵀΣ_x∂_f (Eq. 3.34), with ∂_f the slope of
// the posterior mean at the training input, so
//
//	μ(x*) = k(x*, X)[K + σ_y²I + diag{Δ_f Σ_x Δ_fᵀ}]⁻¹ y          (Eq. 3.35)
//	V(x*) = k(x*, x*) − k(x*, X)[same]⁻¹ k(X, x*)                  (Eq. 3.36)
//
// with the ARD RBF kernel. Fit follows the spec §4 Decision: a standard GP
// (Config.Restarts starts), then NIGPRounds rounds of {Δ_f from the current
// posterior mean; refit the hyper-parameters with the slope term fixed,
// warm-started, one start}. The recursion need not converge (slow
// oscillatory decay or a period-2 cycle, Fig. 3.8); Trace records it.
type NIGP struct {
	cfg   Config
	g     *egp
	slope []float64
	trace []float64
}

var _ Model = (*NIGP)(nil)

// NewNIGP returns the NIGP model.
func NewNIGP(cfg Config) *NIGP { return &NIGP{cfg: cfg} }

// Name implements Model.
func (m *NIGP) Name() string { return "nigp" }

// rbfCov is the ARD RBF kernel of the gp package as an explicit covariance
// (train–train and train–test alike), so that NIGP can add its per-point
// noise, which gp.Fit cannot.
func rbfCov(X [][]float64, k *kernel.Stationary) *covariance {
	k = k.Clone().(*kernel.Stationary)
	var last []float64
	set := func(p []float64) {
		if !slices.Equal(last, p) {
			k.SetParams(p)
			last = append(last[:0], p...)
		}
	}
	return &covariance{
		bounds: k.Bounds(),
		train: func(p []float64, i, j int, grad []float64) float64 {
			set(p)
			if grad != nil {
				return k.ParamGrad(X[i], X[j], grad)
			}
			return k.Eval(X[i], X[j])
		},
		cross: func(p []float64, i int, x []float64) float64 {
			set(p)
			return k.Eval(X[i], x)
		},
		prior: func(p []float64, x []float64) float64 {
			set(p)
			return k.Eval(x, x)
		},
		analytic: true,
	}
}

// Fit implements Model.
func (m *NIGP) Fit(X [][]float64, y []float64, sigmaX []float64) error {
	if err := checkData(X, y, sigmaX); err != nil {
		return err
	}
	X = cloneRows(X)
	sx2 := squares(sigmaX)
	g0, err := fitStandard(kernel.RBF, X, y, m.cfg, nil)
	if err != nil {
		return err
	}
	n, d := len(X), len(sigmaX)
	k := chapterKernel(kernel.RBF, d, y)
	cov := rbfCov(X, k)
	p := g0.Params()
	// The first slopes come from the standard GP, whose mean is on raw y
	// (Config.Raw), the later ones from the current NIGP posterior.
	grad := make([]float64, d)
	meanGrad := func(i int) []float64 {
		g0.MeanGrad(X[i], grad)
		return grad
	}
	slope := make([]float64, n)
	m.trace = m.trace[:0]
	var g *egp
	for range NIGPRounds {
		var change float64
		for i := range n {
			df := meanGrad(i)
			var s float64
			for t, v := range df {
				s += v * v * sx2[t] // diag{Δ_f Σ_x Δ_fᵀ}_i, Σ_x diagonal
			}
			change = math.Max(change, math.Abs(s-slope[i]))
			slope[i] = s
		}
		m.trace = append(m.trace, change)
		next, err := fitEGP(cov, y, egpConfig{
			Config: Config{Restarts: 1, Rand: m.cfg.Rand},
			init:   p, warm: p, extra: slices.Clone(slope),
		})
		if err != nil {
			return err
		}
		g, p = next, next.p
		kk := k.Clone()
		kk.SetParams(p[:len(p)-1])
		meanGrad = func(i int) []float64 { return posteriorMeanGrad(kk, X, next.alpha, X[i], grad) }
	}
	m.g, m.slope = g, slope
	return nil
}

// posteriorMeanGrad writes ∇μ(x) = Σ_i α_i ∂k(x, x_i)/∂x into dst and
// returns it.
func posteriorMeanGrad(k kernel.Kernel, X [][]float64, alpha, x, dst []float64) []float64 {
	clear(dst)
	tmp := make([]float64, len(x))
	for i, xi := range X {
		k.InputGrad(x, xi, tmp)
		for t, v := range tmp {
			dst[t] += alpha[i] * v
		}
	}
	return dst
}

// Predict implements Model: Eqs. 3.35–3.36 at a noise-free test input.
func (m *NIGP) Predict(x []float64) (mean, variance float64) {
	if m.g == nil {
		return math.NaN(), math.NaN()
	}
	return m.g.predict(x)
}

// LogMarginalLikelihood implements Model: the LML with the final slope term.
func (m *NIGP) LogMarginalLikelihood() float64 {
	if m.g == nil {
		return math.NaN()
	}
	return m.g.lml
}

// NoiseVar implements Model: σ_y², without the slope term.
func (m *NIGP) NoiseVar() float64 {
	if m.g == nil {
		return math.NaN()
	}
	return m.g.noiseVar()
}

// Trace returns the convergence diagnostic of the last Fit, one value per
// round: the largest change of an element of diag{Δ_f Σ_x Δ_fᵀ} from the
// previous round (the first round against the start without the slope
// term). Fig. 3.8's "equal" is every element within 1e-6.
func (m *NIGP) Trace() []float64 { return slices.Clone(m.trace) }

// SlopeNoise returns the final per-point slope noise diag{Δ_f Σ_x Δ_fᵀ}.
func (m *NIGP) SlopeNoise() []float64 { return slices.Clone(m.slope) }

// Params returns the fitted log-parameters: log l_d, log σ_k², log σ_y².
func (m *NIGP) Params() []float64 {
	if m.g == nil {
		return nil
	}
	return slices.Clone(m.g.p)
}
