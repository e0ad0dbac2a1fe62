package pruner

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/curve"
)

// Spec is a pruner as a study file or the HTTP API writes it.
type Spec struct {
	Type                 string   `json:"type"` // none, median, percentile, successive_halving, hyperband, threshold
	Percentile           *float64 `json:"percentile,omitempty"`
	NStartupTrials       *int     `json:"n_startup_trials,omitempty"`
	NWarmupSteps         *int64   `json:"n_warmup_steps,omitempty"`
	IntervalSteps        *int64   `json:"interval_steps,omitempty"`
	NMinTrials           *int     `json:"n_min_trials,omitempty"`
	MinResource          *int64   `json:"min_resource,omitempty"`
	MaxResource          *int64   `json:"max_resource,omitempty"`
	ReductionFactor      *int     `json:"reduction_factor,omitempty"`
	MinEarlyStoppingRate *int     `json:"min_early_stopping_rate,omitempty"`
	BootstrapCount       *int     `json:"bootstrap_count,omitempty"`
	Lower                *float64 `json:"lower,omitempty"`
	Upper                *float64 `json:"upper,omitempty"`
	Estimator            string   `json:"estimator,omitempty"` // tse, tse-e or tse-ema: compare this of each curve (Estimated)
	E                    *int     `json:"e,omitempty"`         // tse-e's E
	Gamma                *float64 `json:"gamma,omitempty"`     // tse-ema's γ
	// Objective names the objective of a multi-objective study whose
	// intermediate values the trials report and the pruner compares, in
	// that objective's direction; "" is the first (issue 43).
	Objective string `json:"objective,omitempty"`
}

// Fields lists the JSON names of Spec's fields, for parsers that name unknown ones.
var Fields = []string{
	"type", "percentile", "n_startup_trials", "n_warmup_steps", "interval_steps", "n_min_trials",
	"min_resource", "max_resource", "reduction_factor", "min_early_stopping_rate", "bootstrap_count",
	"lower", "upper", "estimator", "e", "gamma", "objective",
}

// takes lists the fields of each type besides type and the estimator's,
// Optuna's arguments of the pruner of that name.
var takes = map[string][]string{
	"none":               nil,
	"median":             {"n_startup_trials", "n_warmup_steps", "interval_steps", "n_min_trials"},
	"percentile":         {"percentile", "n_startup_trials", "n_warmup_steps", "interval_steps", "n_min_trials"},
	"successive_halving": {"min_resource", "reduction_factor", "min_early_stopping_rate", "bootstrap_count"},
	"hyperband":          {"min_resource", "max_resource", "reduction_factor", "bootstrap_count"},
	"threshold":          {"lower", "upper", "n_warmup_steps", "interval_steps"},
}

const typeList = "none, median, percentile, successive_halving (or asha), hyperband and threshold"

// canonical returns the type's name as takes has it; "" is none.
func canonical(typ string) (string, bool) {
	switch typ {
	case "":
		return "none", true
	case "asha":
		return "successive_halving", true
	}
	_, ok := takes[typ]
	return typ, ok
}

// field is a field that s sets, with its value as String writes it.
type field struct{ name, value string }

// given lists the fields s sets besides type, in the order of Fields.
func (s Spec) given() []field {
	var out []field
	add := func(name string, set bool, value func() string) {
		if set {
			out = append(out, field{name, value()})
		}
	}
	g := func(p *float64) func() string { return func() string { return strconv.FormatFloat(*p, 'g', -1, 64) } }
	i := func(p *int) func() string { return func() string { return strconv.Itoa(*p) } }
	i64 := func(p *int64) func() string { return func() string { return strconv.FormatInt(*p, 10) } }
	add("percentile", s.Percentile != nil, g(s.Percentile))
	add("n_startup_trials", s.NStartupTrials != nil, i(s.NStartupTrials))
	add("n_warmup_steps", s.NWarmupSteps != nil, i64(s.NWarmupSteps))
	add("interval_steps", s.IntervalSteps != nil, i64(s.IntervalSteps))
	add("n_min_trials", s.NMinTrials != nil, i(s.NMinTrials))
	add("min_resource", s.MinResource != nil, i64(s.MinResource))
	add("max_resource", s.MaxResource != nil, i64(s.MaxResource))
	add("reduction_factor", s.ReductionFactor != nil, i(s.ReductionFactor))
	add("min_early_stopping_rate", s.MinEarlyStoppingRate != nil, i(s.MinEarlyStoppingRate))
	add("bootstrap_count", s.BootstrapCount != nil, i(s.BootstrapCount))
	add("lower", s.Lower != nil, g(s.Lower))
	add("upper", s.Upper != nil, g(s.Upper))
	add("estimator", s.Estimator != "", func() string { return s.Estimator })
	add("e", s.E != nil, i(s.E))
	add("gamma", s.Gamma != nil, g(s.Gamma))
	add("objective", s.Objective != "", func() string { return s.Objective })
	return out
}

// IsNone reports whether s is no pruner: type "" or none, which Build
// makes Nop.
func (s Spec) IsNone() bool { return s.Type == "" || s.Type == "none" }

// String is a short summary: the type and the fields set, e.g.
// "successive_halving(reduction_factor=3)".
func (s Spec) String() string {
	typ, ok := canonical(s.Type)
	if !ok {
		typ = s.Type
	}
	var args []string
	for _, f := range s.given() {
		args = append(args, f.name+"="+f.value)
	}
	if len(args) == 0 {
		return typ
	}
	return typ + "(" + strings.Join(args, ", ") + ")"
}

// Build returns the pruner s describes, with Optuna's defaults for the
// fields it leaves out. It refuses an unknown type, a field the type does
// not take and a value Optuna refuses, naming the field and what is
// wanted; all that is wrong at once, separated by "; ".
func (s Spec) Build() (Pruner, error) {
	typ, ok := canonical(s.Type)
	if !ok {
		return nil, fmt.Errorf("pruner.type: %q is not a pruner; the types are %s", s.Type, typeList)
	}
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	for _, f := range s.given() {
		switch {
		case slices.Contains(takes[typ], f.name):
		case typ == "none":
			bad("pruner.%s: type none takes no fields (give a type: %s)", f.name, typeList)
		case f.name == "estimator" || f.name == "e" || f.name == "gamma":
			// checked with the estimator below
		case f.name == "objective":
			// the study checks that it names one of its objectives
		case typ == "median" && f.name == "percentile":
			bad("pruner.percentile: type median is percentile 50; for another percentile write type percentile")
		default:
			bad("pruner.%s: type %s does not take it; it takes %s, estimator, e and gamma", f.name, typ, strings.Join(takes[typ], ", "))
		}
	}
	var p Pruner
	switch typ {
	case "none":
		p = Nop{}
	case "median", "percentile":
		p = s.percentile(typ, bad)
	case "successive_halving":
		p = s.halving(bad)
	case "hyperband":
		p = s.hyperband(bad)
	case "threshold":
		p = s.threshold(bad)
	}
	est := s.estimator(typ, bad)
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	if est != nil {
		if pc, ok := p.(Percentile); ok {
			pc.Latest = true // an estimate's best so far is its first (see Latest)
			p = pc
		}
		p = Estimated{Base: p, Estimator: est}
	}
	return p, nil
}

// orDefault is *p, or def when p is nil; a value below least is reported
// as the field name wanting an integer ≥ least (then what more the
// message says).
func orDefault[T int | int64](bad func(string, ...any), name string, p *T, def, least T, more string) T {
	if p == nil {
		return def
	}
	if *p < least {
		bad("pruner.%s: %d, want an integer ≥ %d%s", name, *p, least, more)
	}
	return *p
}

func (s Spec) percentile(typ string, bad func(string, ...any)) Pruner {
	p := NewMedian()
	if typ == "percentile" {
		switch q := s.Percentile; {
		case q == nil:
			bad("pruner.percentile: missing, want a number in [0, 100] (type percentile needs it; 50 is the median)")
		case math.IsNaN(*q) || *q < 0 || *q > 100:
			bad("pruner.percentile: %v, want a number in [0, 100]", *q)
		default:
			p.Q = *q
		}
	}
	p.StartupTrials = orDefault(bad, "n_startup_trials", s.NStartupTrials, p.StartupTrials, 0, "")
	p.WarmupSteps = orDefault(bad, "n_warmup_steps", s.NWarmupSteps, p.WarmupSteps, 0, "")
	p.IntervalSteps = orDefault(bad, "interval_steps", s.IntervalSteps, p.IntervalSteps, 1, "")
	p.MinTrials = orDefault(bad, "n_min_trials", s.NMinTrials, p.MinTrials, 1, "")
	return p
}

func (s Spec) halving(bad func(string, ...any)) Pruner {
	h := NewSuccessiveHalving()
	h.MinResource = orDefault(bad, "min_resource", s.MinResource, h.MinResource, 1, " (leave it out for auto)")
	h.ReductionFactor = orDefault(bad, "reduction_factor", s.ReductionFactor, h.ReductionFactor, 2, "")
	h.MinEarlyStoppingRate = orDefault(bad, "min_early_stopping_rate", s.MinEarlyStoppingRate, h.MinEarlyStoppingRate, 0, "")
	h.BootstrapCount = orDefault(bad, "bootstrap_count", s.BootstrapCount, h.BootstrapCount, 0, "")
	if h.BootstrapCount > 0 && s.MinResource == nil {
		bad("pruner.bootstrap_count: %d needs a min_resource (Optuna refuses bootstrap_count > 0 with min_resource auto)", h.BootstrapCount)
	}
	return h
}

func (s Spec) hyperband(bad func(string, ...any)) Pruner {
	h := NewHyperband()
	h.MinResource = orDefault(bad, "min_resource", s.MinResource, h.MinResource, 1, "")
	h.MaxResource = orDefault(bad, "max_resource", s.MaxResource, h.MaxResource, max(h.MinResource, 1),
		" (at least min_resource; leave it out for auto)")
	h.ReductionFactor = orDefault(bad, "reduction_factor", s.ReductionFactor, h.ReductionFactor, 2, "")
	h.BootstrapCount = orDefault(bad, "bootstrap_count", s.BootstrapCount, h.BootstrapCount, 0, "")
	if h.BootstrapCount > 0 && s.MaxResource == nil {
		bad("pruner.bootstrap_count: %d needs a max_resource (Optuna refuses bootstrap_count > 0 with max_resource auto)", h.BootstrapCount)
	}
	return h
}

func (s Spec) threshold(bad func(string, ...any)) Pruner {
	p := NewThreshold(math.Inf(-1), math.Inf(1))
	if s.Lower == nil && s.Upper == nil {
		bad("pruner.lower, pruner.upper: neither is set, want at least one bound")
	}
	for _, b := range []struct {
		name string
		v    *float64
		dst  *float64
	}{{"lower", s.Lower, &p.Lower}, {"upper", s.Upper, &p.Upper}} {
		switch {
		case b.v == nil:
		case math.IsNaN(*b.v):
			bad("pruner.%s: NaN, want a number (leave it out for no bound)", b.name)
		default:
			*b.dst = *b.v
		}
	}
	if p.Lower > p.Upper {
		bad("pruner.lower: %v is above pruner.upper %v, want lower ≤ upper", p.Lower, p.Upper)
	}
	p.WarmupSteps = orDefault(bad, "n_warmup_steps", s.NWarmupSteps, p.WarmupSteps, 0, "")
	p.IntervalSteps = orDefault(bad, "interval_steps", s.IntervalSteps, p.IntervalSteps, 1, "")
	return p
}

// estimator is the estimator s names, nil for none (spec §9.5).
func (s Spec) estimator(typ string, bad func(string, ...any)) curve.Estimator {
	if s.E != nil && s.Estimator != "tse-e" {
		bad("pruner.e: only with estimator tse-e (E is the number of latest epochs it sums)")
	}
	if s.Gamma != nil && s.Estimator != "tse-ema" {
		bad("pruner.gamma: only with estimator tse-ema (γ is its decay)")
	}
	if s.Estimator == "" {
		return nil
	}
	if typ == "none" {
		return nil // reported with the fields none does not take
	}
	e, gamma := 0, 0.0 // curve.New's defaults
	if s.E != nil {
		if e = *s.E; e < 1 {
			bad("pruner.e: %d, want an integer ≥ 1", e)
			return nil
		}
	}
	if s.Gamma != nil {
		if gamma = *s.Gamma; math.IsNaN(gamma) || gamma <= 0 || gamma > 1 {
			bad("pruner.gamma: %v, want a number in (0, 1] (the thesis uses 0.999)", gamma)
			return nil
		}
	}
	switch s.Estimator {
	case "tse", "tse-e", "tse-ema":
	default:
		bad("pruner.estimator: %q, want tse, tse-e or tse-ema", s.Estimator)
		return nil
	}
	est, err := curve.New(s.Estimator, e, gamma)
	if err != nil {
		bad("pruner.estimator: %v", err)
		return nil
	}
	return est
}
