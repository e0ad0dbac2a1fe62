package gpbo

import (
	"math"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// The names GPBO.Priors accepts.
const (
	PriorsBoa       = ""           // bo.MAPPriors: lengthscales around half the box, chosen by measurement (default)
	PriorsDimScaled = "dim-scaled" // Hvarfner et al. 2024, as BoTorch's defaults since 0.12
)

// The dimension-scaled priors of Hvarfner et al. 2024, with the constants
// of BoTorch's get_covar_module_with_dim_scaled_prior and its default
// likelihood: log ℓ_i ~ N(√2 + ½ log d, 3) for each ARD lengthscale on
// the unit box, ℓ_i ≥ 0.025, log σ_n² ~ N(−4, 1) with σ_n² ≥ 1e-4, and no
// output scale (the signal variance is held at 1 on the standardised
// targets). The prior median lengthscale grows as √d, so that the
// distance between points in lengthscales stays about the same whatever
// the dimension; the paper reports that this alone makes plain GP-BO
// competitive at D = 25–100. At D = 10 and 20 with 100 evaluations boa's
// default priors do better (docs/gp-defaults.md), so this is an option.
const (
	dimScaledLoc      = math.Sqrt2 // μ = √2 + ½ log d
	dimScaledVar      = 3          // σ² of log ℓ
	dimScaledLenLo    = 0.025
	dimScaledLenHi    = 1e4 // BoTorch has none; far beyond the unit box
	dimScaledNoiseLoc = -4.0
	dimScaledNoiseVar = 1.0
	dimScaledNoiseLo  = 1e-4
)

// priors sets cfg's priors, and k's bounds where the priors need them,
// for g.Priors. With MLE there are none.
func (g *GPBO) priors(k *kernel.Stationary, cfg *gp.Config) {
	switch {
	case g.MLE:
	case g.Priors == PriorsDimScaled:
		mu := dimScaledLoc + 0.5*math.Log(float64(k.Dim()))
		k.SetBounds(kernel.Bound{Lo: dimScaledLenLo, Hi: dimScaledLenHi}, kernel.Bound{Lo: 1, Hi: 1})
		ls := k.Lengthscales()
		for i := range ls {
			ls[i] = math.Exp(mu)
		}
		k.SetLengthscales(ls)
		k.SetVariance(1)
		cfg.Priors = make([]gp.Prior, k.NumParams())
		for i := range ls {
			cfg.Priors[i] = gp.LogNormalPrior(mu, dimScaledVar)
		}
		cfg.NoisePrior = gp.LogNormalPrior(dimScaledNoiseLoc, dimScaledNoiseVar)
		cfg.NoiseBound = kernel.Bound{Lo: dimScaledNoiseLo, Hi: 1}
		cfg.Noise = math.Exp(dimScaledNoiseLoc)
	default:
		cfg.Priors, cfg.NoisePrior = bo.MAPPriors(k)
	}
}
