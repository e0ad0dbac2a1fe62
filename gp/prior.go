package gp

import (
	"fmt"
	"math"
)

// Prior is a prior density on a positive hyper-parameter θ, evaluated on
// u = log θ, including the Jacobian of the log transform so that it is a
// density in u [spec §3.2].
type Prior interface {
	// LogDensity returns log p(u) up to a constant, and d/du.
	LogDensity(u float64) (lp, dlp float64)
}

type gammaPrior struct{ shape, rate float64 }

// GammaPrior returns the Gamma(shape, rate) prior on θ, with density
// ∝ θ^(shape−1) exp(−rate·θ) (rate parametrisation, as in GPy). The PLAyBOOK
// profile uses Gamma(1, 0.001) on the signal variance and Gamma(1, 0.01) on
// each ARD lengthscale [spec §3.2; reference code: a5a/asynchronous-BO].
// It panics unless shape and rate are positive and finite.
func GammaPrior(shape, rate float64) Prior {
	if !(shape > 0 && rate > 0) || math.IsInf(shape, 0) || math.IsInf(rate, 0) {
		panic(fmt.Sprintf("gp: GammaPrior(%v, %v) needs positive finite shape and rate", shape, rate))
	}
	return gammaPrior{shape, rate}
}

// LogDensity implements Prior: with θ = e^u the Jacobian dθ/du = θ turns
// θ^(a−1) e^(−bθ) into θ^a e^(−bθ), so log p(u) = a·u − b·e^u.
func (g gammaPrior) LogDensity(u float64) (float64, float64) {
	t := math.Exp(u)
	return g.shape*u - g.rate*t, g.shape - g.rate*t
}

type logNormalPrior struct{ mu, sigma2 float64 }

// LogNormalPrior returns the prior log θ ~ N(mu, sigma2) (sigma2 is a
// variance). It panics unless sigma2 is positive and finite and mu is finite.
func LogNormalPrior(mu, sigma2 float64) Prior {
	if !(sigma2 > 0) || math.IsInf(sigma2, 0) || math.IsNaN(mu) || math.IsInf(mu, 0) {
		panic(fmt.Sprintf("gp: LogNormalPrior(%v, %v) needs finite mu and positive finite sigma2", mu, sigma2))
	}
	return logNormalPrior{mu, sigma2}
}

// LogDensity implements Prior. u is already the log-parameter, so no
// Jacobian term appears.
func (l logNormalPrior) LogDensity(u float64) (float64, float64) {
	d := u - l.mu
	return -0.5 * d * d / l.sigma2, -d / l.sigma2
}
