package uncertain

import "math/rand/v2"

// Model is a GP regression model of y = f(x̂ + ε_x) + ε_y whose input
// noise ε_x ~ N(0, diag(σ_x²)) is known (spec uncertain-inputs §1): every
// model of the chapter is given σ_x and fits only its kernel and output
// noise hyper-parameters. Test inputs are noise-free: Predict is of the
// latent f at x*.
type Model interface {
	// Name is the model's name in tables: rbf, rq, analytic, nigp,
	// randfunc, utgp, utgp-full.
	Name() string
	// Fit fits the model to the observed inputs X (n × d) and targets y
	// with the input noise standard deviations sigmaX (one per dimension;
	// zeros for a noise-free input).
	Fit(X [][]float64, y []float64, sigmaX []float64) error
	// Predict returns the posterior mean and latent variance of f at the
	// noise-free input x (no output noise added; spec Corrections,
	// "Scoring").
	Predict(x []float64) (mean, variance float64)
	// LogMarginalLikelihood is the fitted model's log marginal
	// likelihood (for UTGP, L_UT of Eq. 3.60).
	LogMarginalLikelihood() float64
	// NoiseVar is the fitted output noise variance σ_n², on the scale
	// of y.
	NoiseVar() float64
}

// Config is what every model's fit shares (spec §8.1): the number of
// multi-start restarts of the marginal-likelihood optimisation (10 in the
// chapter) and the random source of the restarts.
type Config struct {
	Restarts int        // default 10
	Rand     *rand.Rand // required
}

// DefaultRestarts is the chapter's number of restarts [002 §3.6.1].
const DefaultRestarts = 10

func (c Config) restarts() int {
	if c.Restarts <= 0 {
		return DefaultRestarts
	}
	return c.Restarts
}
