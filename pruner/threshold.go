package pruner

import "math"

// Threshold is Optuna's ThresholdPruner: it stops a trial whose latest
// value is NaN or outside [Lower, Upper], a guard against diverging runs
// rather than a comparison between trials. Like Percentile it checks
// only from WarmupSteps on and once per interval of IntervalSteps.
type Threshold struct {
	Lower, Upper float64 // NaN or ±Inf = none
	WarmupSteps  int64   // no pruning at steps below this
	// IntervalSteps: check only at the first report in each interval of
	// this many steps after the warm-up (values below 1 mean 1).
	IntervalSteps int64
}

// NewThreshold returns a Threshold on [lower, upper] with Optuna's
// defaults: no warm-up, every step checked. Pass NaN (or ±Inf) for a
// bound there is none of.
func NewThreshold(lower, upper float64) Threshold {
	return Threshold{Lower: lower, Upper: upper, IntervalSteps: 1}
}

// Prune follows Optuna's ThresholdPruner.prune.
func (p Threshold) Prune(s Study, t Trial) bool {
	step, ok := t.LastStep()
	if !ok || step < p.WarmupSteps {
		return false
	}
	if !firstInInterval(t, step, p.WarmupSteps, p.IntervalSteps) {
		return false
	}
	v := t.Curve[len(t.Curve)-1].Value
	// A NaN bound compares false: no bound.
	return math.IsNaN(v) || v < p.Lower || v > p.Upper
}

// Nop is Optuna's NopPruner: it never stops a trial.
type Nop struct{}

func (Nop) Prune(Study, Trial) bool { return false }
