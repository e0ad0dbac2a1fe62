package pruner

import (
	"math"
	"slices"
	"testing"
)

var nan = math.NaN()

// at makes a Curve of (step, value) pairs.
func at(pairs ...float64) []Point {
	c := make([]Point, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		c = append(c, Point{Step: int64(pairs[i]), Value: pairs[i+1]})
	}
	return c
}

// studyOf is a study of the given trials, numbered in order; the last is
// the trial decided, which it also returns.
func studyOf(maximize bool, trials ...Trial) (Study, Trial) {
	for i := range trials {
		trials[i].Number = i
	}
	return Study{Name: "test", Maximize: maximize, Trials: trials}, trials[len(trials)-1]
}

func done(c []Point) Trial    { return Trial{State: Complete, Curve: c} }
func running(c []Point) Trial { return Trial{State: Running, Curve: c} }

// numpy's nanpercentile with the linear method, values checked with
// numpy 1.24.
func TestNanPercentile(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		q      float64
		want   float64
	}{
		{[]float64{1, 2, 3, 4, 5}, 25, 2},
		{[]float64{5, 4, 3, 2, 1}, 75, 4},
		{[]float64{0.3, 0.1, 0.7}, 40, 0.26},
		{[]float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}, 25, 0.3},
		{[]float64{0.1, 0.2, 0.3, 0.4, 0.5, nan, nan, nan, nan}, 25, 0.2},
		{[]float64{1}, 30, 1},
		{[]float64{math.Inf(-1), 1}, 50, math.Inf(-1)},
		{[]float64{1, math.Inf(1)}, 100, nan}, // inf − inf in numpy's lerp
		{[]float64{nan, nan}, 50, nan},
		{nil, 50, nan},
	} {
		got := nanPercentile(tc.values, tc.q)
		if got != tc.want && !(math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("nanPercentile(%v, %v) = %v, want %v", tc.values, tc.q, got, tc.want)
		}
	}
}

// Optuna's MedianPruner tests (tests/pruners_tests/test_median.py),
// decision for decision.
func TestMedianOptunaExamples(t *testing.T) {
	median := func(startup int, warmup int64) Percentile {
		p := NewMedian()
		p.StartupTrials, p.WarmupSteps = startup, warmup
		return p
	}
	pct := func(q float64) Percentile {
		p := NewPercentile(q)
		p.StartupTrials = 0
		return p
	}
	for _, tc := range []struct {
		name   string
		p      Percentile
		max    bool
		trials []Trial
		want   bool
	}{
		{"one trial", median(0, 0), false, []Trial{running(at(1, 1))}, false},
		{"no values", median(0, 0), false, []Trial{done(at(1, 1)), running(nil)}, false},
		{"worse, minimise", median(0, 0), false, []Trial{done(at(1, 1)), running(at(1, 2))}, true},
		{"worse, maximise", median(0, 0), true, []Trial{done(at(1, 1)), running(at(1, 0.5))}, true},
		{"better, maximise", median(0, 0), true, []Trial{done(at(1, 1)), running(at(1, 2))}, false},
		{"NaN alone", median(0, 0), false, []Trial{running(at(1, nan))}, false},
		{"best NaN", median(0, 0), false, []Trial{done(at(1, nan)), running(at(1, nan))}, true},
		{"median NaN", median(0, 0), false, []Trial{done(at(1, nan)), done(at(1, nan)), running(at(1, 1))}, false},
		{"startup", median(2, 0), false, []Trial{done(at(1, 1)), running(at(1, 2))}, false},
		{"after startup", median(2, 0), false, []Trial{done(at(1, 1)), done(at(1, 2)), running(at(1, 3))}, true},
		{"warm-up", median(0, 1), false, []Trial{done(at(0, 1, 1, 1)), running(at(0, 2))}, false},
		{"after warm-up", median(0, 1), false, []Trial{done(at(0, 1, 1, 1)), running(at(0, 2, 1, 2))}, true},
		// The best value so far counts, not the latest.
		{"best so far", median(0, 0), false, []Trial{done(at(0, 1, 1, 1)), running(at(0, 0, 1, 5))}, false},
		{"25th, minimise", pct(25), false, percentileTrials(2.1), true},
		{"25th, maximise", pct(25), true, percentileTrials(3.9), true},
		{"25th, maximise, better", pct(25), true, percentileTrials(4), false},
	} {
		s, tr := studyOf(tc.max, tc.trials...)
		if got := tc.p.Prune(s, tr); got != tc.want {
			t.Errorf("%s: Prune = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// percentileTrials is 5 complete trials with 1…5 at step 1 and a running
// one with v.
func percentileTrials(v float64) []Trial {
	var ts []Trial
	for x := 1.0; x <= 5; x++ {
		ts = append(ts, done(at(1, x)))
	}
	return append(ts, running(at(1, v)))
}

// Optuna's test_median_pruner_interval_steps: a complete trial of zeros,
// then a trial reporting 2 every reportEvery steps, asked at every step.
func TestMedianIntervalSteps(t *testing.T) {
	for _, tc := range []struct {
		warmup, interval, reportEvery int64
		want                          []int64
	}{
		{0, 1, 1, []int64{0, 1, 2, 3, 4, 5}},
		{1, 1, 1, []int64{1, 2, 3, 4, 5}},
		{1, 2, 1, []int64{1, 3, 5}},
		{0, 3, 10, seq(0, 29)},
		{2, 3, 10, seq(10, 29)},
		{0, 10, 3, []int64{0, 1, 2, 12, 13, 14, 21, 22, 23}},
		{2, 10, 3, []int64{3, 4, 5, 12, 13, 14, 24, 25, 26}},
	} {
		p := Percentile{Q: 50, StartupTrials: 0, WarmupSteps: tc.warmup, IntervalSteps: tc.interval, MinTrials: 1}
		last := tc.want[len(tc.want)-1] + 1
		first := done(nil)
		for i := range last {
			first.Curve = append(first.Curve, Point{i, 0})
		}
		var got []int64
		tr := running(nil)
		for i := range last {
			if i%tc.reportEvery == 0 {
				tr.Curve = append(tr.Curve, Point{i, 2})
			}
			if s, tr := studyOf(false, first, tr); p.Prune(s, tr) {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("warm-up %d, interval %d, a report every %d steps: pruned at %v, want %v",
				tc.warmup, tc.interval, tc.reportEvery, got, tc.want)
		}
	}
}

// Optuna's test_median_pruner_n_min_trials: no decision until 2 complete
// trials reported the step.
func TestMedianMinTrials(t *testing.T) {
	p := Percentile{Q: 50, StartupTrials: 2, IntervalSteps: 1, MinTrials: 2}
	a, b := done(at(1, 4, 2, 2)), done(at(1, 3))
	if s, tr := studyOf(false, a, b, running(at(1, 4, 2, 3))); p.Prune(s, tr) {
		t.Error("pruned with 1 complete trial at step 2, n_min_trials 2")
	}
	if s, tr := studyOf(false, a, b, done(at(1, 4, 2, 3)), running(at(1, 4, 2, 3))); !p.Prune(s, tr) {
		t.Error("not pruned with 2 complete trials at step 2 (2, 3) and the trial's best 3")
	}
}

// Running, pruned and failed trials are not compared with.
func TestMedianCompleteOnly(t *testing.T) {
	p := NewMedian()
	p.StartupTrials = 0
	others := []Trial{{State: Running, Curve: at(1, 0)}, {State: Pruned, Curve: at(1, 0)}, {State: Failed, Curve: at(1, 0)}}
	if s, tr := studyOf(false, append(others, running(at(1, 5)))...); p.Prune(s, tr) {
		t.Error("pruned with no complete trial")
	}
	if s, tr := studyOf(false, append(others, done(at(1, 6)), running(at(1, 5)))...); p.Prune(s, tr) {
		t.Error("pruned below the one complete trial's value")
	}
}

func seq(from, to int64) []int64 {
	var s []int64
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}
