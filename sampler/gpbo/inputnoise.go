package gpbo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/uncertain"
)

// How GPBO.InputNoise treats the input noise a space declares
// (space.Param.InputNoise: the trial runs at x + ε, not at x).
const (
	// InputNoiseUTGP averages the GP over the unscented transform of the
	// input noise, the simple UTGP [002 §3.5.3; spec uncertain-inputs §6]:
	// the acquisition and the recommendation see E[f(x + ε)] and its
	// inflated variance, so that a point on a narrow peak, which the noise
	// would throw off, scores below a broad one. The default.
	InputNoiseUTGP = "utgp"
	// InputNoiseIgnore fits the standard GP to the values observed at the
	// inputs asked for, which the chapter finds "likely to be sufficient"
	// in BO [002 §3.8].
	InputNoiseIgnore = "ignore"
)

// inputNoiseAcquisitions are the acquisitions of one model's mean and
// variance, which a UTGP gives; the others are built on the GP itself
// (sample paths, hyper-parameter samples).
var inputNoiseAcquisitions = []string{"", AcqLogEI, AcqEI, AcqPI, AcqLCB, "ucb", AcqGPUCB}

// InputNoiseModel names the model of a space's input noise: "utgp", or ""
// when g ignores it.
func (g *GPBO) InputNoiseModel() string {
	if g.InputNoise == InputNoiseIgnore {
		return ""
	}
	return InputNoiseUTGP
}

// CheckSpace implements sampler.SpaceChecker: a space with input noise
// needs an acquisition the UTGP can serve.
func (g *GPBO) CheckSpace(sp *space.Space) error {
	if sp.FeatureNoise() == nil || g.InputNoiseModel() == "" {
		return nil
	}
	if !slices.Contains(inputNoiseAcquisitions, strings.ToLower(g.Acquisition)) {
		return fmt.Errorf("gpbo: acquisition %s with input_noise in the space: the UTGP serves %s (or set input_noise: ignore)",
			g.Acquisition, strings.Join(inputNoiseAcquisitions[1:], ", "))
	}
	return nil
}

// surrogate is what the acquisition and the recommendation see of model:
// model itself, or, for a space with input noise, the simple UTGP over it
// (its hyper-parameters are every sigma GP's).
func (g *GPBO) surrogate(sp *space.Space, model *gp.GP) acq.BatchModel {
	sigma := sp.FeatureNoise()
	if sigma == nil || g.InputNoiseModel() == "" {
		return model
	}
	u, err := uncertain.SimpleFrom(model, sigma, uncertain.DefaultUT())
	if err != nil {
		// The space's features are the kernel's: it cannot fail but by a
		// bug, which the standard GP survives.
		g.Log().Warn("gpbo: no UTGP for the input noise; the standard GP stands in", "err", err)
		return model
	}
	return u
}
