package analysis_test

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// handmade is a small study with every state, reports, an infeasible
// trial and a re-run, minimising.
func handmade() analysis.Study {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 10},
		space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"a", "b"}},
	)
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tr := func(n int, st study.State, v float64, x float64, k string) study.Trial {
		a := space.Assignment{"x": x, "k": k}
		u, _ := sp.Encode(a)
		return study.Trial{Number: n, State: st, Value: v, Params: a, X: u, RetryOf: -1, Worker: "w",
			Started: t0.Add(time.Duration(n) * time.Minute), Finished: t0.Add(time.Duration(n+1) * time.Minute)}
	}
	ts := []study.Trial{
		tr(0, study.Complete, 5, 1, "a"),
		tr(1, study.Failed, 0, 2, "b"),
		tr(2, study.Complete, 3, 3, "b"),
		tr(3, study.Pruned, 9, 4, "a"),
		tr(4, study.Complete, 1, 5, "a"), // infeasible: does not become the best
		tr(5, study.Running, 0, 6, "b"),
		tr(6, study.Complete, 2, 7, "b"),
		tr(7, study.Pruned, 0, 8, "a"), // pruned before any report
	}
	ts[1].Reason = "exit status 1"
	ts[3].Reports = []study.Report{{Step: 1, Value: 12}, {Step: 2, Value: 9}}
	ts[2].Reports = []study.Report{{Step: 1, Value: 8}, {Step: 2, Value: 3}}
	f := false
	ts[4].Feasible = &f
	ts[5].Finished = time.Time{}
	ts[6].RetryOf = 1
	return analysis.Study{Space: sp, Trials: ts}
}

func TestHistory(t *testing.T) {
	nan := math.NaN()
	want := []analysis.HistoryPoint{
		{Number: 0, State: study.Complete, Value: 5, Best: 5},
		{Number: 1, State: study.Failed, Value: nan, Best: 5},
		{Number: 2, State: study.Complete, Value: 3, Best: 3},
		{Number: 3, State: study.Pruned, Value: 9, Best: 3},
		{Number: 4, State: study.Complete, Value: 1, Best: 3},
		{Number: 6, State: study.Complete, Value: 2, Best: 2},
		{Number: 7, State: study.Pruned, Value: nan, Best: 2},
	}
	h := analysis.History(handmade())
	if len(h) != len(want) {
		t.Fatalf("%d points, want %d: %+v", len(h), len(want), h)
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for i := range h {
		g, w := h[i], want[i]
		if g.Number != w.Number || g.State != w.State || !same(g.Value, w.Value) || !same(g.Best, w.Best) {
			t.Errorf("point %d = %+v, want %+v", i, g, w)
		}
	}
	if h[4].Feasible == nil || *h[4].Feasible {
		t.Errorf("trial 4's Feasible = %v, want false", h[4].Feasible)
	}
	// Maximising: the best is the largest feasible COMPLETE value.
	s := handmade()
	s.Direction = study.Maximize
	h = analysis.History(s)
	if got := h[len(h)-1].Best; got != 5 {
		t.Errorf("maximize: final best = %v, want 5", got)
	}
	// Before the first COMPLETE trial the best is NaN.
	s.Trials = s.Trials[1:2]
	if h := analysis.History(s); !math.IsNaN(h[0].Best) {
		t.Errorf("best before any COMPLETE trial = %v, want NaN", h[0].Best)
	}
}

func TestDownsample(t *testing.T) {
	s := random(t, unit(1), 10000, 1, func(a space.Assignment) float64 { return a["x0"].(float64) })
	h := analysis.History(s)
	required := 2 // first and last
	for i := 1; i < len(h); i++ {
		if h[i].Best != h[i-1].Best {
			required++
		}
	}
	for _, n := range []int{0, 2, 50, 500, 20000} {
		d := analysis.Downsample(h, n)
		if len(d) > max(n, required) || len(h) > n && n >= required && len(d) < n/2 {
			t.Errorf("n = %d: %d points (%d required)", n, len(d), required)
		}
		if d[0] != h[0] || d[len(d)-1] != h[len(h)-1] {
			t.Errorf("n = %d: first or last point lost", n)
		}
		if !slices.IsSortedFunc(d, func(a, b analysis.HistoryPoint) int { return a.Number - b.Number }) {
			t.Errorf("n = %d: out of order", n)
		}
	}
	// Every change of the best is kept when the budget allows it.
	d := analysis.Downsample(h, 100)
	var changes []float64
	for i := range h {
		if i == 0 || h[i].Best != h[i-1].Best {
			changes = append(changes, h[i].Best)
		}
	}
	kept := map[float64]bool{}
	for i := range d {
		kept[d[i].Best] = true
	}
	for _, b := range changes {
		if !kept[b] {
			t.Errorf("best %v lost by Downsample", b)
		}
	}
	if len(changes) > 50 {
		t.Fatalf("%d best changes: the test wants fewer than the budget", len(changes))
	}
}

func TestEDF(t *testing.T) {
	v, s := analysis.EDF(handmade())
	if !slices.Equal(v, []float64{1, 2, 3, 5}) || !slices.Equal(s, []float64{0.25, 0.5, 0.75, 1}) {
		t.Errorf("EDF = %v, %v", v, s)
	}
	if v, s := analysis.EDF(analysis.Study{Space: unit(1)}); len(v) != 0 || len(s) != 0 {
		t.Errorf("empty study: EDF = %v, %v", v, s)
	}
}

func TestCurves(t *testing.T) {
	c := analysis.Curves(handmade())
	if len(c) != 2 || c[0].Number != 2 || c[1].Number != 3 || c[1].State != study.Pruned {
		t.Fatalf("curves = %+v", c)
	}
	if !slices.Equal(c[1].Steps, []int64{1, 2}) || !slices.Equal(c[1].Values, []float64{12, 9}) {
		t.Errorf("curve 3 = %+v", c[1])
	}
}

func TestTimeline(t *testing.T) {
	sp := analysis.Timeline(handmade())
	if len(sp) != 8 {
		t.Fatalf("%d spans, want 8", len(sp))
	}
	if sp[1].Reason != "exit status 1" || sp[6].RetryOf != 1 || !sp[5].End.IsZero() || sp[5].State != study.Running {
		t.Errorf("spans = %+v", sp)
	}
}

func TestSlice(t *testing.T) {
	s := handmade()
	pts, err := analysis.Slice(s, "k")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range pts {
		got = append(got, p.Category)
	}
	if !slices.Equal(got, []string{"a", "b", "a", "b"}) || pts[1].X != 1 {
		t.Errorf("slice k = %+v", pts)
	}
	pts, _ = analysis.Slice(s, "x")
	if len(pts) != 4 || pts[2].X != 5 || pts[2].Feasible == nil {
		t.Errorf("slice x = %+v", pts)
	}
	if _, err := analysis.Slice(s, "nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown parameter: err = %v", err)
	}
}

func TestParallel(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "width", Kind: space.Ordinal, Values: []float64{16, 32, 64}},
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam"}},
		space.Param{Name: "momentum", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"opt": {"sgd"}}},
	)
	s := random(t, sp, 20, 1, func(a space.Assignment) float64 { return a["lr"].(float64) })
	axes, lines := analysis.Parallel(s)
	if len(axes) != 4 || !axes[0].Log || axes[1].Low != 16 || axes[1].High != 64 ||
		!slices.Equal(axes[2].Categories, []string{"sgd", "adam"}) || axes[2].High != 1 {
		t.Errorf("axes = %+v", axes)
	}
	if len(lines) != 20 {
		t.Fatalf("%d lines, want 20", len(lines))
	}
	for _, l := range lines {
		tr := s.Trials[l.Number]
		_, active := tr.Params["momentum"]
		if active == math.IsNaN(l.Coords[3]) {
			t.Errorf("trial %d: momentum active %v but coord %v", l.Number, active, l.Coords[3])
		}
		if l.Coords[0] != tr.Params["lr"].(float64) || l.Value != tr.Value {
			t.Errorf("trial %d: line %+v", l.Number, l)
		}
	}
}

func TestContour(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: -1, High: 1},
		space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 1000, Log: true},
	)
	s := random(t, sp, 300, 4, func(a space.Assignment) float64 {
		return a["x"].(float64) * a["x"].(float64) * map[string]float64{"a": 1, "b": 2, "c": 3}[a["k"].(string)]
	})
	c, err := analysis.ContourOf(s, "x", "k", 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.X) != 20 || c.X[0] != -1 || c.X[19] != 1 || !slices.Equal(c.Y, []float64{0, 1, 2}) ||
		!slices.Equal(c.YLabels, []string{"a", "b", "c"}) || c.XLabels != nil {
		t.Errorf("axes: X = %v, Y = %v, labels %v %v", c.X, c.Y, c.XLabels, c.YLabels)
	}
	if len(c.Z) != 3 || len(c.Z[0]) != 20 || len(c.Points) != 300 {
		t.Fatalf("Z is %d×%d, %d points", len(c.Z), len(c.Z[0]), len(c.Points))
	}
	// The forest sees the bowl: the edges above the middle, k = c above k = a.
	if !(c.Z[2][0] > c.Z[2][10] && c.Z[2][0] > c.Z[0][0]) {
		t.Errorf("prediction misses the shape: Z = %v", c.Z)
	}
	// A log-scale integer axis: distinct integers, increasing.
	c, err = analysis.ContourOf(s, "n", "x", 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.X[0] != 1 || c.X[len(c.X)-1] != 1000 || !slices.IsSorted(c.X) {
		t.Errorf("log int axis = %v", c.X)
	}
	for _, bad := range []struct {
		px, py string
		grid   int
	}{{"x", "x", 10}, {"x", "nope", 10}, {"x", "k", 1}} {
		if _, err := analysis.ContourOf(s, bad.px, bad.py, bad.grid, 1); err == nil {
			t.Errorf("ContourOf(%q, %q, %d): want an error", bad.px, bad.py, bad.grid)
		}
	}
}
