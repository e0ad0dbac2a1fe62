package tpe

import (
	"fmt"
	"strconv"

	"github.com/boaopt/boa/sampler"
)

// options are the settings a study file's mapping form may give tpe
// (sampler: {type: tpe, multivariate: true}), under the names of Optuna's
// TPESampler.
var options = map[string]sampler.Option[TPE]{
	"multivariate":     {Help: "true or false", Set: sampler.BoolOption(func(t *TPE) *bool { return &t.Multivariate })},
	"group":            {Help: "true or false (with multivariate)", Set: sampler.BoolOption(func(t *TPE) *bool { return &t.Group })},
	"constant_liar":    {Help: "true or false", Set: sampler.BoolOption(func(t *TPE) *bool { return &t.ConstantLiar })},
	"n_startup_trials": {Help: "an integer ≥ 1", Set: sampler.IntOption(func(t *TPE) *int { return &t.Startup }, 1)},
	"n_ei_candidates":  {Help: "an integer ≥ 1", Set: sampler.IntOption(func(t *TPE) *int { return &t.Candidates }, 1)},
	"gamma": {Help: "a fraction in (0,1), or 0 for Optuna's default_gamma", Set: func(t *TPE, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0 && x < 1) {
			return fmt.Errorf("%q is not in [0,1)", v)
		}
		t.Gamma = x
		return nil
	}},
}

// Configure implements sampler.Configurable: it sets the options of a
// study file's mapping form; an unknown name or a bad value is refused
// with what is accepted.
func (t *TPE) Configure(opts sampler.Options) error {
	if err := sampler.Configure(t, opts, options, nil); err != nil {
		return err
	}
	if t.Group && !t.Multivariate {
		return fmt.Errorf("option group needs multivariate, as in Optuna")
	}
	return nil
}
