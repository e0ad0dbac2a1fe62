// Package constraint is a study's limits on the metrics its trials report:
// `constraints: {ram_kb: {max: 256}, accuracy: {min: 0.8}}` in a study
// file, BOA_METRIC lines from a command, Metrics in a Go result.
//
// A trial that finished with a value is computable; it is feasible when
// every limit holds for the metrics it reported. The two are distinct
// [spec constrained-autotinyml §1]: a crash, an out-of-memory, a timeout
// or a NaN objective makes a trial not computable (FAILED, no value), a
// model that trained but is over a limit makes it infeasible (COMPLETE,
// with its value, which the samplers may still learn from). A limit on a
// metric the trial did not report, or reported as NaN, does not hold: the
// trial's reason says which.
package constraint

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// MaxName is the longest metric name, in bytes (runner.MaxMetricName: the
// longest a BOA_METRIC line may carry).
const MaxName = 256

// Limit bounds one metric: Min ≤ value ≤ Max, either side optional.
type Limit struct {
	Min *float64 `json:"min,omitempty" yaml:"min,omitempty"`
	Max *float64 `json:"max,omitempty" yaml:"max,omitempty"`
}

// String writes the limit as "≥ 0.8", "≤ 256" or "in [1, 2]".
func (l Limit) String() string {
	switch {
	case l.Min != nil && l.Max != nil:
		return fmt.Sprintf("in [%g, %g]", *l.Min, *l.Max)
	case l.Min != nil:
		return fmt.Sprintf(">= %g", *l.Min)
	case l.Max != nil:
		return fmt.Sprintf("<= %g", *l.Max)
	}
	return "unbounded"
}

// Slack is how far v is outside the limit: ≤ 0 where the limit holds, in
// the metric's units (for a two-sided limit the larger of the two
// violations), NaN for a NaN value. The constrained samplers model it.
func (l Limit) Slack(v float64) float64 {
	s := math.Inf(-1)
	if l.Max != nil {
		s = v - *l.Max
	}
	if l.Min != nil {
		s = math.Max(s, *l.Min-v)
	}
	if math.IsNaN(v) {
		return math.NaN()
	}
	return s
}

// Set is a study's constraints, by metric name.
type Set map[string]Limit

// Names returns the constrained metrics in sorted order: the order of
// Verdict.Slack and of sampler.Observation.Slack.
func (s Set) Names() []string {
	names := make([]string, 0, len(s))
	for n := range s {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// String writes the set as "accuracy >= 0.8, ram_kb <= 256", in Names
// order, or "none". Two sets with the same limits write the same string.
func (s Set) String() string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, 0, len(s))
	for _, n := range s.Names() {
		parts = append(parts, n+" "+s[n].String())
	}
	return strings.Join(parts, ", ")
}

// Validate reports the first thing wrong with s, naming the metric: an
// empty name or one a BOA_METRIC line cannot carry, a limit with neither
// bound, a bound that is not finite, min > max.
func (s Set) Validate() error {
	for _, n := range s.Names() {
		l := s[n]
		switch {
		case strings.TrimSpace(n) == "":
			return errors.New("constraints: a metric name is empty")
		case len(n) > MaxName || strings.ContainsAny(n, " \t\r\n\x00"):
			return fmt.Errorf("constraints: %q is not a metric name a trial can report (BOA_METRIC NAME VALUE: at most %d bytes, no spaces)", n, MaxName)
		case l.Min == nil && l.Max == nil:
			return fmt.Errorf("constraints: %s: give min, max or both, as in {max: 256}", n)
		case l.Min != nil && !finite(*l.Min), l.Max != nil && !finite(*l.Max):
			return fmt.Errorf("constraints: %s: the limits must be finite numbers", n)
		case l.Min != nil && l.Max != nil && *l.Min > *l.Max:
			return fmt.Errorf("constraints: %s: min %g is greater than max %g, so no value can hold", n, *l.Min, *l.Max)
		}
	}
	return nil
}

// Verdict is a computable trial judged against a Set.
type Verdict struct {
	Slack    []float64 // per constraint, in Names order; NaN when not reported or NaN
	Feasible bool
	// Reason names the limits that do not hold, as in
	// "infeasible: ram_kb = 300 > max 256; latency_ms not reported".
	Reason string
}

// Check judges the metrics a computable trial reported. An empty Set
// holds everywhere.
func (s Set) Check(metrics map[string]float64) Verdict {
	names := s.Names()
	v := Verdict{Slack: make([]float64, len(names)), Feasible: true}
	var why []string
	for i, n := range names {
		m, ok := metrics[n]
		if !ok {
			m = math.NaN()
		}
		v.Slack[i] = s[n].Slack(m)
		switch {
		case !ok:
			why = append(why, n+" not reported")
		case math.IsNaN(m):
			why = append(why, n+" is NaN")
		case v.Slack[i] > 0:
			why = append(why, fmt.Sprintf("%s = %g, want %s", n, m, s[n]))
		default:
			continue
		}
		v.Feasible = false
	}
	if len(why) > 0 {
		v.Reason = "infeasible: " + strings.Join(why, "; ")
	}
	return v
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
