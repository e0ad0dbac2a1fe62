package tpe

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/sampler"
)

// options are the settings a study file's mapping form may give tpe
// (sampler: {type: tpe, multivariate: true}), under the names of Optuna's
// TPESampler.
var options = map[string]struct {
	help string
	set  func(t *TPE, v string) error
}{
	"multivariate":     {"true or false", boolOption(func(t *TPE) *bool { return &t.Multivariate })},
	"group":            {"true or false (with multivariate)", boolOption(func(t *TPE) *bool { return &t.Group })},
	"constant_liar":    {"true or false", boolOption(func(t *TPE) *bool { return &t.ConstantLiar })},
	"n_startup_trials": {"an integer ≥ 1", intOption(func(t *TPE) *int { return &t.Startup })},
	"n_ei_candidates":  {"an integer ≥ 1", intOption(func(t *TPE) *int { return &t.Candidates })},
	"gamma": {"a fraction in (0,1), or 0 for Optuna's default_gamma", func(t *TPE, v string) error {
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
	for _, k := range opts.Keys() {
		o, ok := options[strings.ReplaceAll(strings.ToLower(k), "-", "_")]
		if !ok {
			known := make([]string, 0, len(options))
			for n := range options {
				known = append(known, n)
			}
			slices.Sort(known)
			return fmt.Errorf("unknown option %q (the options are %s)", k, strings.Join(known, ", "))
		}
		if err := o.set(t, strings.TrimSpace(opts[k])); err != nil {
			return fmt.Errorf("option %s: %w; want %s", k, err, o.help)
		}
	}
	if t.Group && !t.Multivariate {
		return fmt.Errorf("option group needs multivariate, as in Optuna")
	}
	return nil
}

func boolOption(field func(*TPE) *bool) func(*TPE, string) error {
	return func(t *TPE, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("%q is not true or false", v)
		}
		*field(t) = b
		return nil
	}
}

func intOption(field func(*TPE) *int) func(*TPE, string) error {
	return func(t *TPE, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%q is not an integer ≥ 1", v)
		}
		*field(t) = n
		return nil
	}
}
