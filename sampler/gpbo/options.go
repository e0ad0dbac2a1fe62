package gpbo

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/transform"
)

// How GPBO.Marginalise treats the GP's hyper-parameters.
const (
	MarginaliseMAP = "map" // one point estimate, fitted by MAP or MLE (default)
	MarginaliseESS = "ess" // Samples draws from their posterior by elliptical slice sampling [000 §3.3; spec §3.3]
)

// How MES samples the minimum value f* and how Thompson sampling draws its
// sample path [spec §4.4, §4.5].
const (
	MinimaGumbel  = "gumbel" // the Gumbel approximation on a candidate set (default)
	MinimaRFF     = "rff"    // the minima of random-Fourier-feature sample paths
	ThompsonExact = "exact"  // a joint draw on 2000 candidates (default)
	ThompsonRFF   = "rff"    // a random-Fourier-feature path, minimised and refined
)

// Acquisitions lists the names GPBO.Acquisition accepts.
var Acquisitions = []string{AcqLogEI, AcqEI, AcqPI, AcqLCB, "ucb", AcqGPUCB, AcqTS, AcqFITBO, AcqFITBOMM, AcqMES, AcqPES, AcqKG}

// options are the settings a study file may give gpbo (the mapping form
// sampler: {type: gpbo, acquisition: fitbo, samples: 100}), under the
// names a BoTorch or Optuna user would look for.
var options = map[string]sampler.Option[GPBO]{
	"acquisition": {Help: "one of " + strings.Join(Acquisitions, ", "), Set: func(g *GPBO, v string) error {
		v = strings.ToLower(v)
		if v == "log-ei" {
			v = AcqLogEI
		}
		if !slices.Contains(Acquisitions, v) {
			return fmt.Errorf("unknown acquisition %q", v)
		}
		g.Acquisition = v
		return nil
	}},
	"marginalise": {Help: "map or ess", Set: func(g *GPBO, v string) error {
		v = strings.ToLower(v)
		if v != MarginaliseMAP && v != MarginaliseESS {
			return fmt.Errorf("unknown marginalisation %q", v)
		}
		g.Marginalise = v
		return nil
	}},
	"samples":     {Help: "an integer ≥ 1, the hyper-parameter samples of ess (default 200)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.Samples }, 1)},
	"kappa":       {Help: "a number > 0, κ of the confidence bound (default 2)", Set: floatOption(func(g *GPBO) *float64 { return &g.Kappa })},
	"xi_rel":      {Help: "a number ≥ 0, ξ = xi_rel·σ(x) in EI and PI (default 0)", Set: floatOption(func(g *GPBO) *float64 { return &g.XiRel })},
	"init_points": {Help: "an integer ≥ 1, the Sobol design's size", Set: sampler.IntOption(func(g *GPBO) *int { return &g.InitPoints }, 1)},
	"candidates":  {Help: "an integer ≥ 1, the acquisition's raw candidates (default 2048)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.Candidates }, 1)},
	"restarts":    {Help: "an integer ≥ 1, the hyper-parameter fit's starts (default 10)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.Restarts }, 1)},
	"refit_every": {Help: "an integer ≥ 1, observations between hyper-parameter fits (default 1)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.RefitEvery }, 1)},
	"exact_limit": {Help: "an integer ≥ 1, observations up to which the GP is exact (default 2000)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.ExactLimit }, 1)},
	"subset":      {Help: "an integer ≥ 2, beyond exact_limit how many observations the GP is fitted to (default 1000)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.Subset }, 2)},
	"mes_samples": {Help: "an integer ≥ 1, MES's minimum-value samples K (default 10)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.MESSamples }, 1)},
	"pes_samples": {Help: "an integer ≥ 1, PES's minimiser samples J (default 10)", Set: sampler.IntOption(func(g *GPBO) *int { return &g.PESSamples }, 1)},
	"minima": {Help: "gumbel or rff, how MES samples the minimum value", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case MinimaGumbel, MinimaRFF:
			g.Minima = v
			return nil
		}
		return fmt.Errorf("unknown minimum-value sampler %q", v)
	}},
	"thompson": {Help: "exact or rff, how ts draws its sample path", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case ThompsonExact, ThompsonRFF:
			g.Thompson = v
			return nil
		}
		return fmt.Errorf("unknown Thompson sampler %q", v)
	}},
	"kernel": {Help: "rbf, matern12, matern32 or matern52", Set: func(g *GPBO, v string) error {
		f, err := kernel.ParseFamily(strings.ToLower(v))
		g.Kernel = f
		return err
	}},
	"targets": {Help: "none, log, copula or power: what the GP is fitted to, mapped from the values", Set: func(g *GPBO, v string) error {
		t, err := transform.Parse(v)
		g.Targets = t
		return err
	}},
	"priors": {Help: "boa or dim-scaled (Hvarfner et al. 2024, BoTorch's)", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case "boa", "":
			g.Priors = PriorsBoa
		case PriorsDimScaled, "hvarfner":
			g.Priors = PriorsDimScaled
		default:
			return fmt.Errorf("unknown priors %q", v)
		}
		return nil
	}},
	"constraints": {Help: "model or penalty (the naive constrained BO: infeasible and failed trials at the worst value + 10 % of the range)", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case ConstraintsModel, ConstraintsPenalty:
			g.Constraints = v
			return nil
		}
		return fmt.Errorf("unknown constraint handling %q", v)
	}},
	"input_noise": {Help: "utgp (default) or ignore: how a space's input_noise is modelled (the unscented-transform GP, or the standard GP at the inputs asked for)", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case InputNoiseUTGP, InputNoiseIgnore:
			g.InputNoise = v
			return nil
		}
		return fmt.Errorf("unknown input-noise model %q", v)
	}},
	"ard":  {Help: "true or false", Set: sampler.BoolOption(func(g *GPBO) *bool { return &g.ARD })},
	"warp": {Help: "true or false (warp the ordered inputs by fitted Kumaraswamy CDFs, as HEBO)", Set: sampler.BoolOption(func(g *GPBO) *bool { return &g.Warp })},
	"mle":  {Help: "true or false (maximum likelihood instead of MAP)", Set: sampler.BoolOption(func(g *GPBO) *bool { return &g.MLE })},
	"pending": {Help: "believer, liar or ignore", Set: func(g *GPBO, v string) error {
		switch v = strings.ToLower(v); v {
		case "believer", "kb":
			g.Pending = PendingBeliever
		case PendingLiar, PendingIgnore:
			g.Pending = v
		default:
			return fmt.Errorf("unknown pending rule %q", v)
		}
		return nil
	}},
}

// Configure implements sampler.Configurable: it sets the options of a
// study file's mapping form; an unknown name or a bad value is refused
// with what is accepted.
func (g *GPBO) Configure(opts sampler.Options) error {
	if err := sampler.Configure(g, opts, options, map[string]string{"marginalize": "marginalise"}); err != nil {
		return err
	}
	return g.check()
}

func floatOption(field func(*GPBO) *float64) func(*GPBO, string) error {
	return func(g *GPBO, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0) || x > 1e300 {
			return fmt.Errorf("%q is not a finite number ≥ 0", v)
		}
		*field(g) = x
		return nil
	}
}
