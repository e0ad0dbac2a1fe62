package uncertain

import (
	"math"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// Standard is a GP on the observed inputs that ignores the input noise: the
// chapter's RBF and RQ baselines [002 §3.1, Eqs. 3.7–3.8; spec §1]. It is
// gp.Fit with an ARD kernel, zero mean on raw y (Config.Raw; spec
// Corrections, "Output scale"), the output noise learned in [1e-6, 1]
// (spec §8.1 Decision) and the chapter's restarts.
type Standard struct {
	family kernel.Family
	cfg    Config
	g      *gp.GP
}

var _ Model = (*Standard)(nil)

// NewRBF returns the standard GP with the ARD RBF kernel (Eq. 3.7).
func NewRBF(cfg Config) *Standard { return &Standard{family: kernel.RBF, cfg: cfg} }

// NewRQ returns the standard GP with the ARD rational-quadratic kernel
// (Eq. 3.8), which fits one more hyper-parameter, its shape α.
func NewRQ(cfg Config) *Standard { return &Standard{family: kernel.RQ, cfg: cfg} }

// Name implements Model: rbf or rq.
func (s *Standard) Name() string { return s.family.String() }

// Fit implements Model; sigmaX is checked but not used.
func (s *Standard) Fit(X [][]float64, y []float64, sigmaX []float64) error {
	if err := checkData(X, y, sigmaX); err != nil {
		return err
	}
	g, err := fitStandard(s.family, X, y, s.cfg, nil)
	if err != nil {
		return err
	}
	s.g = g
	return nil
}

// fitStandard is the chapter's standard GP fit, shared with NIGP's first
// step; warm (log kernel parameters then log noise) is an optional start.
func fitStandard(f kernel.Family, X [][]float64, y []float64, cfg Config, warm []float64) (*gp.GP, error) {
	return gp.Fit(X, y, gp.Config{
		Kernel:     chapterKernel(f, len(X[0]), y),
		Noise:      initNoise,
		NoiseBound: noiseBound,
		Restarts:   cfg.restarts(),
		Rand:       cfg.Rand,
		Warm:       warm,
		Raw:        true,
	})
}

// Predict implements Model.
func (s *Standard) Predict(x []float64) (mean, variance float64) {
	if s.g == nil {
		return math.NaN(), math.NaN()
	}
	return s.g.Predict(x)
}

// LogMarginalLikelihood implements Model.
func (s *Standard) LogMarginalLikelihood() float64 {
	if s.g == nil {
		return math.NaN()
	}
	return s.g.LogMarginal()
}

// NoiseVar implements Model.
func (s *Standard) NoiseVar() float64 {
	if s.g == nil {
		return math.NaN()
	}
	return s.g.NoiseVarY()
}

// GP returns the fitted GP (nil before Fit), for diagnostics such as the
// fitted lengthscales.
func (s *Standard) GP() *gp.GP { return s.g }
