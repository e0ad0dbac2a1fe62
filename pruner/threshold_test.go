package pruner

import (
	"math"
	"testing"
)

// Optuna's ThresholdPruner: the latest value outside [Lower, Upper] or NaN
// stops the trial, after the warm-up and at the first report of each
// interval.
func TestThreshold(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name string
		p    Threshold
		c    []Point
		want bool
	}{
		{"inside", NewThreshold(0, 1), at(0, 0.5), false},
		{"on the bounds", NewThreshold(0, 1), at(0, 0, 1, 1), false},
		{"below", NewThreshold(0, 1), at(0, -0.1), true},
		{"above", NewThreshold(0, 1), at(0, 1.1), true},
		{"latest only", NewThreshold(0, 1), at(0, 5, 1, 0.5), false},
		{"NaN", NewThreshold(nan, nan), at(0, nan), true},
		{"no lower (NaN)", NewThreshold(nan, 1), at(0, -1e300), false},
		{"no upper (Inf)", NewThreshold(0, inf), at(0, 1e300), false},
		{"no report", NewThreshold(0, 1), nil, false},
		{"warm-up", Threshold{Lower: 0, Upper: 1, WarmupSteps: 2, IntervalSteps: 1}, at(1, 5), false},
		{"after warm-up", Threshold{Lower: 0, Upper: 1, WarmupSteps: 2, IntervalSteps: 1}, at(1, 5, 2, 5), true},
		// Interval 3 after warm-up 2: checks at 2, 5, 8, …
		{"off interval", Threshold{Lower: 0, Upper: 1, WarmupSteps: 2, IntervalSteps: 3}, at(2, 0, 3, 5), false},
		{"on interval", Threshold{Lower: 0, Upper: 1, WarmupSteps: 2, IntervalSteps: 3}, at(2, 0, 3, 0, 5, 5), true},
		{"first past a skipped check", Threshold{Lower: 0, Upper: 1, WarmupSteps: 2, IntervalSteps: 3}, at(2, 0, 3, 0, 7, 5), true},
		{"zero interval means 1", Threshold{Lower: 0, Upper: 1}, at(0, 0, 1, 5), true},
	} {
		s, tr := studyOf(false, running(tc.c))
		if got := tc.p.Prune(s, tr); got != tc.want {
			t.Errorf("%s: Prune = %v, want %v", tc.name, got, tc.want)
		}
	}
	if s, tr := studyOf(false, running(at(0, nan))); (Nop{}).Prune(s, tr) {
		t.Error("Nop pruned")
	}
}
