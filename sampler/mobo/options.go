package mobo

import (
	"fmt"
	"strconv"

	"github.com/boaopt/boa/sampler"
)

// options are the settings a study file may give mobo (sampler: {type:
// mobo, margin: 0.1}).
var options = map[string]sampler.Option[MOBO]{
	"init_points": {Help: "an integer ≥ 1, the Sobol design's size (default max(5, d+1))", Set: sampler.IntOption(func(m *MOBO) *int { return &m.InitPoints }, 1)},
	"candidates":  {Help: "an integer ≥ 1, the acquisition's raw candidates (default 2048)", Set: sampler.IntOption(func(m *MOBO) *int { return &m.Candidates }, 1)},
	"restarts":    {Help: "an integer ≥ 1, each GP fit's starts (default 10)", Set: sampler.IntOption(func(m *MOBO) *int { return &m.Restarts }, 1)},
	"margin":      {Help: "a number > 0, the reference point's margin beyond the front's nadir, a fraction of its range (default 0.05)", Set: floatOption(func(m *MOBO) *float64 { return &m.Margin })},
	"rho":         {Help: "a number ≥ 0, ParEGO's augmentation ρ beyond three objectives (default 0.05)", Set: floatOption(func(m *MOBO) *float64 { return &m.Rho })},
}

// Configure implements sampler.Configurable: it sets the options of a
// study file's mapping form; an unknown name or a bad value is refused
// with what is accepted.
func (m *MOBO) Configure(opts sampler.Options) error {
	if err := sampler.Configure(m, opts, options, nil); err != nil {
		return err
	}
	return m.check()
}

func floatOption(field func(*MOBO) *float64) func(*MOBO, string) error {
	return func(m *MOBO, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || !(x >= 0) || x > 1e300 {
			return fmt.Errorf("%q is not a finite number ≥ 0", v)
		}
		*field(m) = x
		return nil
	}
}
