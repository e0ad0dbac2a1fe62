package svmcbo

import (
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// surrogate is phase 2's model of the loss: a GP or a random forest.
type surrogate struct {
	sp *space.Space
	g  *gp.GP
	f  *forest.Forest
}

// trainingSet returns the points and losses phase 2's model is fitted to
// (Decision d): every observation with a finite value (train_on =
// computable), or only the feasible ones with FeasibleOnly or CodeCompat
// (train_on = feasible, the code's choice). On the test functions the two
// agree, since an infeasible point there has no value (spec §7.1); in a
// study whose infeasible trials still report a meaningful loss
// (AutoTinyML: trainable but not deployable) computable lets the model
// learn from them.
func (c *CBO) trainingSet(h *sampler.History) (U [][]float64, y []float64) {
	for _, o := range h.Observed {
		if finite(o.Y) && !(o.Infeasible && (c.FeasibleOnly || c.CodeCompat)) {
			U = append(U, o.X)
			y = append(y, o.Y)
		}
	}
	return U, y
}

// fit fits phase 2's model to the points U and losses y. The GP (spec
// §4.3) is an RBF kernel with one lengthscale per input, fitted by maximum
// likelihood on standardised y; in code_compat it is the reference code's
// scikit-learn GaussianProcessRegressor(RBF()): one lengthscale, from 1 in
// [1e-5, 1e5], unit amplitude, y not standardised, α = 1e-10 on the
// diagonal, one start. The forest is package forest's zero Settings (10
// trees, squared-error splits, the total variance, spec §4.2), the
// thesis-era code's RandomForestRegressor(criterion='mse').
func (c *CBO) fit(U [][]float64, y []float64, sp *space.Space, rng *rand.Rand) (*surrogate, error) {
	s := &surrogate{sp: sp}
	if c.Surrogate == Forest {
		X := make([][]float64, len(U))
		for i, u := range U {
			X[i] = bo.ForestInput(sp, u)
		}
		f, err := forest.Fit(X, y, c.Forest, rng)
		s.f = f
		return s, err
	}
	X := make([][]float64, len(U))
	for i, u := range U {
		X[i] = encode(sp, u)
	}
	dim := len(X[0])
	cfg := gp.Config{Kernel: kernel.NewStationary(kernel.RBF, dim, true), Rand: rng}
	if c.CodeCompat {
		k := kernel.NewStationary(kernel.RBF, dim, false)
		k.SetLengthscales([]float64{1})
		k.SetVariance(1)
		k.SetBounds(kernel.Bound{Lo: 1e-5, Hi: 1e5}, kernel.Bound{Lo: 1, Hi: 1})
		cfg = gp.Config{Kernel: k, Noise: 1e-10, FixNoise: true, Restarts: 1, Raw: true}
	}
	g, err := gp.Fit(X, y, cfg)
	s.g = g
	return s, err
}

// lcb returns μ − κσ at the encoded points U (spec §3.1, Eq. 6.4, with
// the code's κ = 1.96).
func (s *surrogate) lcb(U [][]float64) []float64 {
	out := make([]float64, len(U))
	if s.f != nil {
		for i, u := range U {
			mu, sd := s.f.Predict(bo.ForestInput(s.sp, u))
			out[i] = mu - Kappa*sd
		}
		return out
	}
	X := make([][]float64, len(U))
	for i, u := range U {
		X[i] = encode(s.sp, u)
	}
	v := make([]float64, len(U))
	s.g.PredictBatch(X, out, v)
	for i := range out {
		out[i] -= Kappa * math.Sqrt(v[i])
	}
	return out
}
