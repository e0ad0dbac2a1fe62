package analysis

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Study is what the analyses read: the space, the direction and the trials
// (study.Trial, in number order).
type Study struct {
	Space     *space.Space
	Direction study.Direction
	Trials    []study.Trial
}

// better reports whether v is better than w in the study's direction.
func (s Study) better(v, w float64) bool {
	if s.Direction == study.Maximize {
		return v > w
	}
	return v < w
}

// feasible is whether a trial counts for the best: not judged infeasible.
func feasible(t *study.Trial) bool { return t.Feasible == nil || *t.Feasible }

// complete is whether a trial has a usable objective value.
func complete(t *study.Trial) bool {
	return t.State == study.Complete && !math.IsNaN(t.Value) && !math.IsInf(t.Value, 0)
}

// HistoryPoint is one finished trial of the optimisation history.
type HistoryPoint struct {
	Number int
	State  study.State
	// Value is the objective: a COMPLETE trial's value, the value a PRUNED
	// one stopped at, NaN when the trial has none (FAILED, or PRUNED
	// before its first report).
	Value float64
	// Best is the best feasible COMPLETE value so far in the study's
	// direction; NaN before the first.
	Best     float64
	Feasible *bool // nil when not judged
}

// History returns the finished trials (COMPLETE, PRUNED, FAILED) in number
// order with the best value so far.
func History(s Study) []HistoryPoint {
	h := make([]HistoryPoint, 0, len(s.Trials))
	best := math.NaN()
	for i := range s.Trials {
		t := &s.Trials[i]
		if !t.State.Finished() {
			continue
		}
		v := t.Value
		switch {
		case t.State == study.Failed:
			v = math.NaN()
		case t.State == study.Pruned && len(t.Reports) == 0:
			v = math.NaN()
		}
		if complete(t) && feasible(t) && (math.IsNaN(best) || s.better(v, best)) {
			best = v
		}
		h = append(h, HistoryPoint{Number: t.Number, State: t.State, Value: v, Best: best, Feasible: t.Feasible})
	}
	return h
}

// Downsample keeps at most n points of a long series for display, always
// keeping the first, the last, and every point where Best changes (so a
// 50,000-trial history stays exact where it matters); the rest of the
// budget goes to points evenly spread between them. When those kept points
// alone are more than n, all of them are returned. n < 2 counts as 2.
func Downsample(h []HistoryPoint, n int) []HistoryPoint {
	n = max(n, 2)
	if len(h) <= n {
		return slices.Clone(h)
	}
	keep := make([]bool, len(h))
	kept := 0
	mark := func(i int) {
		if !keep[i] {
			keep[i] = true
			kept++
		}
	}
	mark(0)
	mark(len(h) - 1)
	for i := 1; i < len(h); i++ {
		if !sameFloat(h[i].Best, h[i-1].Best) {
			mark(i)
		}
	}
	if free := n - kept; free > 0 {
		// Evenly spaced indices; some may already be kept, so a few
		// fewer than n points may come out, never more.
		for k := 1; k <= free; k++ {
			mark(int(float64(k) * float64(len(h)-1) / float64(free+1)))
			if kept >= n {
				break
			}
		}
	}
	out := make([]HistoryPoint, 0, kept)
	for i, k := range keep {
		if k {
			out = append(out, h[i])
		}
	}
	return out
}

func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// EDF is the empirical distribution of the COMPLETE values (feasible or
// not): the values sorted ascending and the share of values ≤ each.
func EDF(s Study) (values, shares []float64) {
	for i := range s.Trials {
		if complete(&s.Trials[i]) {
			values = append(values, s.Trials[i].Value)
		}
	}
	slices.Sort(values)
	shares = make([]float64, len(values))
	for i := range values {
		shares[i] = float64(i+1) / float64(len(values))
	}
	return values, shares
}

// Curve is a trial's intermediate values (its reports), with its state
// (PRUNED ones are the stopped curves).
type Curve struct {
	Number int
	State  study.State
	Steps  []int64
	Values []float64
}

// Curves returns the trials that reported intermediate values, in number
// order.
func Curves(s Study) []Curve {
	var cs []Curve
	for i := range s.Trials {
		t := &s.Trials[i]
		if len(t.Reports) == 0 {
			continue
		}
		c := Curve{Number: t.Number, State: t.State, Steps: make([]int64, len(t.Reports)), Values: make([]float64, len(t.Reports))}
		for k, r := range t.Reports {
			c.Steps[k], c.Values[k] = r.Step, r.Value
		}
		cs = append(cs, c)
	}
	return cs
}

// Span is a trial's run on the timeline: who ran it and when. End is zero
// while it runs. RetryOf is the number of the trial it re-runs after a
// crash, or −1; Reason is why it FAILED (or why a COMPLETE one is
// infeasible).
type Span struct {
	Number     int
	Worker     string
	Start, End time.Time
	State      study.State
	RetryOf    int
	Reason     string
}

// Timeline returns the trials that started, in number order.
func Timeline(s Study) []Span {
	var sp []Span
	for i := range s.Trials {
		t := &s.Trials[i]
		if t.Started.IsZero() {
			continue
		}
		sp = append(sp, Span{Number: t.Number, Worker: t.Worker, Start: t.Started, End: t.Finished,
			State: t.State, RetryOf: t.RetryOf, Reason: t.Reason})
	}
	return sp
}

// SlicePoint is a COMPLETE trial's value against one parameter: X is the
// parameter's value (for a categorical or boolean one, the index of its
// choice, and Category its text).
type SlicePoint struct {
	Number   int
	X        float64
	Category string
	Value    float64
	Feasible *bool
}

// Slice returns the COMPLETE trials in which param is active, with its
// value; an error for a parameter the space does not have.
func Slice(s Study, param string) ([]SlicePoint, error) {
	i, err := index(s.Space, param)
	if err != nil {
		return nil, err
	}
	p := s.Space.Param(i)
	var pts []SlicePoint
	for k := range s.Trials {
		t := &s.Trials[k]
		if !complete(t) {
			continue
		}
		v, ok := t.Params[param]
		if !ok {
			continue
		}
		x, cat := numeric(&p, v)
		pts = append(pts, SlicePoint{Number: t.Number, X: x, Category: cat, Value: t.Value, Feasible: t.Feasible})
	}
	return pts, nil
}

// index is the position of param in sp, or an error naming the choices.
func index(sp *space.Space, param string) (int, error) {
	i, ok := sp.Index(param)
	if !ok {
		return 0, fmt.Errorf("analysis: no parameter %q; the space has %v", param, sp.Names())
	}
	return i, nil
}

// numeric maps a parameter value to a number for plotting: the value
// itself, or for a categorical or boolean parameter the index of its choice
// and its text.
func numeric(p *space.Param, v any) (x float64, category string) {
	switch v := v.(type) {
	case float64:
		return v, ""
	case int:
		return float64(v), ""
	case bool:
		if v {
			return 1, "true"
		}
		return 0, "false"
	case string:
		return float64(slices.Index(p.Choices, v)), v
	}
	return math.NaN(), fmt.Sprint(v)
}

// categories returns the choices of an unordered parameter, nil otherwise.
func categories(p *space.Param) []string {
	switch p.Kind {
	case space.Categorical:
		return slices.Clone(p.Choices)
	case space.Bool:
		return []string{"false", "true"}
	}
	return nil
}

// Axis is one axis of the parallel coordinates: a parameter's range in its
// own units, or for a categorical or boolean one its choices (indices 0 to
// len−1 on the axis).
type Axis struct {
	Param      string
	Categories []string
	Low, High  float64
	Log        bool
}

// Line is one COMPLETE trial across the axes: Coords holds its raw value
// per axis (a choice's index for a categorical axis, NaN where the
// parameter is inactive); the reader normalises with the axis's range.
type Line struct {
	Number   int
	Coords   []float64
	Value    float64
	Feasible *bool
}

// Parallel returns one axis per parameter, in declaration order, and one
// line per COMPLETE trial.
func Parallel(s Study) ([]Axis, []Line) {
	ps := s.Space.Params()
	axes := make([]Axis, len(ps))
	for i := range ps {
		p := &ps[i]
		a := Axis{Param: p.Name, Categories: categories(p), Low: p.Low, High: p.High, Log: p.Log}
		switch p.Kind {
		case space.Ordinal:
			a.Low, a.High = p.Values[0], p.Values[len(p.Values)-1]
		case space.Categorical, space.Bool:
			a.Low, a.High = 0, float64(len(a.Categories)-1)
		}
		axes[i] = a
	}
	var lines []Line
	for k := range s.Trials {
		t := &s.Trials[k]
		if !complete(t) {
			continue
		}
		c := make([]float64, len(ps))
		for i := range ps {
			c[i] = math.NaN()
			if v, ok := t.Params[ps[i].Name]; ok {
				c[i], _ = numeric(&ps[i], v)
			}
		}
		lines = append(lines, Line{Number: t.Number, Coords: c, Value: t.Value, Feasible: t.Feasible})
	}
	return axes, lines
}
