package pruner

import (
	"math"
	"slices"
	"sort"
)

// Percentile is Optuna's PercentilePruner (spec tse-and-early-stopping
// §9.2): it stops a trial whose best value so far is worse than the Q-th
// percentile of the values the complete trials reported at the trial's
// latest step. NewMedian is Q = 50, Optuna's MedianPruner.
type Percentile struct {
	// Q in [0, 100]: the percentile of the complete trials' values a trial
	// must stay within. 25 keeps the trials in the best quarter; when the
	// study maximises Optuna takes the (100 − Q)-th percentile so that Q
	// still counts from the best end.
	Q float64
	// StartupTrials: no pruning until this many trials are complete.
	StartupTrials int
	// WarmupSteps: no pruning at steps below this.
	WarmupSteps int64
	// IntervalSteps: check only once in each interval of this many steps
	// after the warm-up (values below 1 mean 1).
	IntervalSteps int64
	// MinTrials: no pruning at a step fewer than this many complete trials
	// reported (values below 1 mean 1).
	MinTrials int
	// Latest compares the trial's latest value instead of its best so far
	// (Optuna's). Spec.Build sets it under an estimator (Estimated): TSE
	// and TSE-EMA sum losses, so a curve's best estimate so far is its
	// first, and the pruner would judge every trial by its first step;
	// spec tse-and-early-stopping §9.5 compares the estimate at the step.
	Latest bool
}

// NewMedian returns Optuna's MedianPruner with its defaults: 5 startup
// trials, no warm-up, every step checked, 1 trial needed at the step.
func NewMedian() Percentile { return NewPercentile(50) }

// NewPercentile returns Optuna's PercentilePruner(q) with its defaults.
func NewPercentile(q float64) Percentile {
	return Percentile{Q: q, StartupTrials: 5, WarmupSteps: 0, IntervalSteps: 1, MinTrials: 1}
}

// Prune follows Optuna's PercentilePruner.prune step by step (§9.2).
func (p Percentile) Prune(s Study, t Trial) bool {
	var complete []Trial
	for _, u := range s.Trials {
		if u.State == Complete {
			complete = append(complete, u)
		}
	}
	// Optuna returns early on no complete trial even when n_startup_trials
	// is 0: there is nothing to compare with.
	if len(complete) == 0 || len(complete) < p.StartupTrials {
		return false
	}
	step, ok := t.LastStep()
	if !ok || step < p.WarmupSteps {
		return false
	}
	if !firstInInterval(t, step, p.WarmupSteps, p.IntervalSteps) {
		return false
	}
	best := bestValue(t, s.Maximize)
	if p.Latest {
		best = t.Curve[len(t.Curve)-1].Value
	}
	if math.IsNaN(best) {
		return true // every value the trial reported is NaN (Latest: the latest one is)
	}
	// The values at this very step; Optuna counts the NaNs among them
	// against n_min_trials but leaves them out of the percentile.
	var at []float64
	for _, u := range complete {
		if v, ok := valueAt(u, step); ok {
			at = append(at, v)
		}
	}
	if len(at) < max(p.MinTrials, 1) {
		return false
	}
	q := p.Q
	if s.Maximize {
		q = 100 - q
	}
	ref := nanPercentile(at, q)
	if math.IsNaN(ref) {
		return false
	}
	if s.Maximize {
		return best < ref
	}
	return best > ref
}

// firstInInterval reports whether step is the first report of t in its
// pruning interval: the interval's start, the nearest pruning step at or
// below step, ⌊(step − warmup)/interval⌋·interval + warmup, lies above the
// trial's previous reported step. A check that falls on a step the trial
// skipped thus moves to its next report (Optuna's _is_first_in_interval_step).
func firstInInterval(t Trial, step, warmup, interval int64) bool {
	interval = max(interval, 1)
	warmup = max(warmup, 0)
	start := floorDiv(step-warmup, interval)*interval + warmup
	previous := int64(-1)
	for _, pt := range t.Curve {
		if pt.Step != step && pt.Step > previous {
			previous = pt.Step
		}
	}
	return previous < start
}

// floorDiv is Python's a // b for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// bestValue is numpy's nanmin (nanmax when maximising) of t's values: NaN
// only when every value is NaN.
func bestValue(t Trial, maximize bool) float64 {
	best := math.NaN()
	for _, pt := range t.Curve {
		switch v := pt.Value; {
		case math.IsNaN(v):
		case math.IsNaN(best), maximize && v > best, !maximize && v < best:
			best = v
		}
	}
	return best
}

// valueAt returns the value t reported at step.
func valueAt(t Trial, step int64) (float64, bool) {
	i := sort.Search(len(t.Curve), func(i int) bool { return t.Curve[i].Step >= step })
	if i < len(t.Curve) && t.Curve[i].Step == step {
		return t.Curve[i].Value, true
	}
	return 0, false
}

// nanPercentile is numpy 1.24's nanpercentile(values, q) with its default
// "linear" method (Hyndman & Fan's 7th), operation for operation so that
// ties with a trial's value break as in Optuna: NaNs are dropped, the
// virtual index is (n−1)·q/100 and numpy's _lerp interpolates from the
// upper neighbour when the fraction is ≥ 0.5. NaN when no value is left.
func nanPercentile(values []float64, q float64) float64 {
	x := make([]float64, 0, len(values))
	for _, v := range values {
		if !math.IsNaN(v) {
			x = append(x, v)
		}
	}
	n := len(x)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(x)
	vi := float64(n-1) * (q / 100)
	var lo, hi int
	var prev float64
	switch {
	case vi >= float64(n-1):
		// numpy sets both neighbours to the last element and the previous
		// index to −1, which the weight below keeps.
		lo, hi, prev = n-1, n-1, -1
	case vi < 0:
		lo, hi, prev = 0, 0, 0
	default:
		prev = math.Floor(vi)
		lo = int(prev)
		hi = lo + 1
	}
	gamma := vi - prev
	a, b := x[lo], x[hi]
	d := b - a
	if gamma >= 0.5 {
		return b - d*(1-gamma)
	}
	return a + d*gamma
}
