package uncertain

import (
	"math"
	"slices"

	"github.com/boaopt/boa/kernel"
)

// Analytic is the GP whose RBF kernel has the Gaussian input densities
// integrated in (Dallaire et al. 2011) [002 §3.2, Eq. 3.24; spec §2]:
//
//	k_NI(x_i, x_j) = σ_k² exp(−½ δᵀ(Σ_k + Σ_i + Σ_j)⁻¹δ) / |I + Σ_k⁻¹(Σ_i + Σ_j)(1 − δ_ij)|^{1/2},
//
// evaluated at the observed inputs with Σ_i = Σ_j = Σ_x (global noise) and,
// for a noise-free test input, Σ_* = 0 (spec §2 Decision). Σ_x is fixed to
// the given value; the lengthscales, σ_k² and the output noise are fitted.
type Analytic struct {
	cfg Config
	g   *egp
}

var _ Model = (*Analytic)(nil)

// NewAnalytic returns the Analytic model.
func NewAnalytic(cfg Config) *Analytic { return &Analytic{cfg: cfg} }

// Name implements Model.
func (a *Analytic) Name() string { return "analytic" }

// analyticCov is k_NI on the training inputs X with input variances sx2
// (σ_{x,d}²). Log-parameters: log l_d (d of them), log σ_k² — the order of
// the gp package's ARD RBF, so that σ_x = 0 is that kernel parameter for
// parameter.
func analyticCov(X [][]float64, sx2 []float64) *covariance {
	d := len(sx2)
	b := make([]kernel.Bound, d+1)
	for i := range d {
		b[i] = kernel.Bound{Lo: math.Log(lenBound.Lo), Hi: math.Log(lenBound.Hi)}
	}
	b[d] = kernel.Bound{Lo: math.Log(varBound.Lo), Hi: math.Log(varBound.Hi)}
	// knI returns k with a_d = l_d² + m·σ_{x,d}² (m = 2 train–train, 1
	// train–test) and, with grad, ∂k/∂log l_d = k(1 − l_d²/a_d + δ_d² l_d²/a_d²)
	// and ∂k/∂log σ_k² = k (spec §2, Gradients).
	knI := func(p, x, y []float64, m float64, grad []float64) float64 {
		logk := p[d]
		for t := range d {
			l2 := math.Exp(2 * p[t])
			a := l2 + m*sx2[t]
			dt := x[t] - y[t]
			logk += p[t] - 0.5*math.Log(a) - dt*dt/(2*a)
		}
		k := math.Exp(logk)
		if grad != nil {
			for t := range d {
				l2 := math.Exp(2 * p[t])
				a := l2 + m*sx2[t]
				dt := x[t] - y[t]
				grad[t] = k * (1 - l2/a + dt*dt*l2/(a*a))
			}
			grad[d] = k
		}
		return k
	}
	return &covariance{
		bounds: b,
		train: func(p []float64, i, j int, grad []float64) float64 {
			if i == j {
				// Eqs. 3.21–3.23: the density integrates to one, k = σ_k²,
				// whatever the lengthscales.
				k := math.Exp(p[d])
				if grad != nil {
					clear(grad[:d])
					grad[d] = k
				}
				return k
			}
			return knI(p, X[i], X[j], 2, grad)
		},
		cross:    func(p []float64, i int, x []float64) float64 { return knI(p, X[i], x, 1, nil) },
		prior:    func(p []float64, _ []float64) float64 { return math.Exp(p[d]) },
		analytic: true,
	}
}

// Fit implements Model.
func (a *Analytic) Fit(X [][]float64, y []float64, sigmaX []float64) error {
	if err := checkData(X, y, sigmaX); err != nil {
		return err
	}
	cov := analyticCov(cloneRows(X), squares(sigmaX))
	g, err := fitEGP(cov, y, egpConfig{Config: a.cfg, init: initParams(len(sigmaX), y)})
	if err != nil {
		return err
	}
	a.g = g
	return nil
}

// Predict implements Model.
func (a *Analytic) Predict(x []float64) (mean, variance float64) {
	if a.g == nil {
		return math.NaN(), math.NaN()
	}
	return a.g.predict(x)
}

// LogMarginalLikelihood implements Model.
func (a *Analytic) LogMarginalLikelihood() float64 {
	if a.g == nil {
		return math.NaN()
	}
	return a.g.lml
}

// NoiseVar implements Model.
func (a *Analytic) NoiseVar() float64 {
	if a.g == nil {
		return math.NaN()
	}
	return a.g.noiseVar()
}

// Params returns the fitted log-parameters: log l_d, log σ_k², log σ_n².
func (a *Analytic) Params() []float64 {
	if a.g == nil {
		return nil
	}
	return slices.Clone(a.g.p)
}
