package pruner

import (
	"slices"
	"testing"
)

// The index of the worst promoted value for |competing| = 1…9, η = 4
// (spec §10, §9.3 step 5): ⌊n/4⌋ − 1, and 0 (the best alone) below 4.
func TestPromotableIndex(t *testing.T) {
	want := []int{0, 0, 0, 0, 0, 0, 0, 1, 1}
	for n := 1; n <= 9; n++ {
		if got := promotableIndex(n, 4); got != want[n-1] {
			t.Errorf("promotableIndex(%d, 4) = %d, want %d", n, got, want[n-1])
		}
	}
	// With 8 values 1…8 the best two go on, minimising and maximising.
	for _, tc := range []struct {
		value    float64
		maximize bool
		want     bool
	}{{1, false, true}, {2, false, true}, {3, false, false}, {8, true, true}, {7, true, true}, {6, true, false}} {
		competing := []float64{5, 3, 8, 1, 7, 2, 6, 4}
		if got := promotable(tc.value, competing, 4, tc.maximize); got != tc.want {
			t.Errorf("promotable(%v of 1…8, η 4, maximise %v) = %v, want %v", tc.value, tc.maximize, got, tc.want)
		}
	}
}

func TestSuccessiveHalvingPromotionSteps(t *testing.T) {
	for _, tc := range []struct {
		r, eta int64
		s0     int
		want   []int64
	}{
		{1, 4, 0, []int64{1, 4, 16, 64}},
		{2, 2, 0, []int64{2, 4, 8, 16}},
		{1, 2, 1, []int64{2, 4, 8, 16}},
		{3, 3, 2, []int64{27, 81, 243, 729}},
	} {
		var got []int64
		for k := range 4 {
			got = append(got, promotionStep(tc.r, tc.eta, tc.s0+k))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("r %d, η %d, s₀ %d: rungs at %v, want %v", tc.r, tc.eta, tc.s0, got, tc.want)
		}
	}
	if got := promotionStep(3, 4, 200); got != 1<<63-1 {
		t.Errorf("promotionStep overflows to %d", got)
	}
}

// Decisions after Optuna's tests/pruners_tests/test_successive_halving.py
// and §9.3.
func TestSuccessiveHalving(t *testing.T) {
	sh := func(r int64, eta, s0, bootstrap int) SuccessiveHalving {
		return SuccessiveHalving{MinResource: r, ReductionFactor: eta, MinEarlyStoppingRate: s0, BootstrapCount: bootstrap}
	}
	for _, tc := range []struct {
		name   string
		p      SuccessiveHalving
		max    bool
		trials []Trial
		want   bool
	}{
		{"first trial", sh(1, 2, 0, 0), false, []Trial{running(at(1, 1))}, false},
		{"no values", sh(1, 2, 0, 0), false, []Trial{running(at(1, 1)), running(nil)}, false},
		{"worse, minimise", sh(1, 2, 0, 0), false, []Trial{running(at(1, 1)), running(at(1, 2))}, true},
		{"worse, maximise", sh(1, 2, 0, 0), true, []Trial{running(at(1, 1)), running(at(1, 0.5))}, true},
		{"tie", sh(1, 2, 0, 0), false, []Trial{running(at(1, 1)), running(at(1, 1))}, false},
		{"before the rung", sh(2, 2, 0, 0), false, []Trial{running(at(2, 1)), running(at(1, 5))}, false},
		{"NaN before the rung", sh(2, 2, 0, 0), false, []Trial{running(at(1, nan))}, false},
		{"NaN at the rung", sh(2, 2, 0, 0), false, []Trial{running(at(1, nan, 2, nan))}, true},
		{"NaN past the rung", sh(2, 2, 0, 0), false, []Trial{running(at(1, 0, 3, nan))}, true},
		// The rung value is the first report at or after the rung's step.
		{"rung value at a later step", sh(2, 2, 0, 0), false, []Trial{done(at(1, 0, 3, 1, 5, 0)), running(at(2, 1.5))}, true},
		{"rung value, better", sh(2, 2, 0, 0), false, []Trial{done(at(1, 0, 3, 1, 5, 0)), running(at(2, 0.5))}, false},
		// A NaN is never on a rung: the next value is.
		{"NaN not on a rung", sh(1, 2, 0, 0), false, []Trial{{State: Pruned, Curve: at(1, nan)}, running(at(1, 2))}, false},
		{"NaN skipped", sh(1, 2, 0, 0), false, []Trial{running(at(1, nan, 2, 1)), running(at(1, 2))}, true},
		{"rate 1: first rung at 2", sh(1, 2, 1, 0), false, []Trial{running(at(1, 1)), running(at(1, 2))}, false},
		{"rate 1, at 2", sh(1, 2, 1, 0), false, []Trial{running(at(2, 1)), running(at(2, 2))}, true},
		{"bootstrap, alone", sh(1, 2, 0, 1), false, []Trial{running(at(1, 1))}, true},
		{"bootstrap, second", sh(1, 2, 0, 1), false, []Trial{running(at(1, 1)), running(at(1, 1))}, false},
		// Pruned and complete trials compete; failed ones do not.
		{"pruned competes", sh(1, 2, 0, 0), false, []Trial{{State: Pruned, Curve: at(1, 1)}, running(at(1, 2))}, true},
		{"failed ignored", sh(1, 2, 0, 0), false, []Trial{{State: Failed, Curve: at(1, 1)}, running(at(1, 2))}, false},
		// Auto min_resource: nothing before a trial completes; then
		// ⌊250/100⌋ = 2, so step 1 is before the first rung.
		{"auto, none complete", sh(0, 2, 0, 0), false, []Trial{running(at(1, 1)), running(at(1, 2))}, false},
		{"auto, r = 2: step 1", sh(0, 2, 0, 0), false, []Trial{done(at(1, 1, 250, 1)), running(at(1, 2))}, false},
		{"auto, r = 2: step 2", sh(0, 2, 0, 0), false, []Trial{done(at(1, 1, 250, 1)), running(at(1, 2, 2, 2))}, true},
		{"auto, r = 1", sh(0, 2, 0, 0), false, []Trial{done(at(1, 1, 99, 1)), running(at(1, 2))}, true},
	} {
		s, tr := studyOf(tc.max, tc.trials...)
		if got := tc.p.Prune(s, tr); got != tc.want {
			t.Errorf("%s: Prune = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// One report can pass several rungs; each is checked in turn, against
// the trials that reached it.
func TestSuccessiveHalvingSeveralRungs(t *testing.T) {
	p := SuccessiveHalving{MinResource: 1, ReductionFactor: 2}
	// Rungs at 1, 2, 4. Four trials at rung 0 (values 1…4 at step 1), two
	// of them at rung 1 (step 2), one at rung 2 (step 4, value 0.5).
	others := []Trial{
		done(at(1, 1, 2, 1, 4, 0.5)), done(at(1, 2, 2, 2)),
		{State: Pruned, Curve: at(1, 3)}, {State: Pruned, Curve: at(1, 4)},
	}
	for _, tc := range []struct {
		value float64
		want  bool
	}{
		// Rung 0: 5 values, the best 2 go on, so ≤ 2; rung 1: 3 values,
		// the best alone, ≤ 1; rung 2: 2 values, ≤ 0.5.
		{2.5, true}, {1.5, true}, {0.7, true}, {0.4, false},
	} {
		s, tr := studyOf(false, append(slices.Clone(others), running(at(5, tc.value)))...)
		if got := p.Prune(s, tr); got != tc.want {
			t.Errorf("a first report of %v at step 5: Prune = %v, want %v", tc.value, got, tc.want)
		}
	}
	// Rungs the trial passed at earlier reports are not checked again: a
	// trial that was best at step 1 and is worst at step 3 goes on, as
	// the next rung is at 4 with η = 4; reporting first at step 3 it
	// would meet rung 0 and stop.
	p = SuccessiveHalving{MinResource: 1, ReductionFactor: 4}
	if s, tr := studyOf(false, done(at(1, 1, 3, 1)), running(at(1, 0, 3, 9))); p.Prune(s, tr) {
		t.Error("rung 0 checked again at the trial's second report")
	}
	if s, tr := studyOf(false, done(at(1, 1, 3, 1)), running(at(3, 9))); !p.Prune(s, tr) {
		t.Error("a first report at step 3 skipped rung 0")
	}
}

// The deviation SuccessiveHalving documents: trial 2, pruned at a first
// report at step 2 that passed rungs 0 (step 1) and 1 (step 2), failed at
// rung 0 (1 against 0 and 0.1), and Optuna records it there only; boa
// counts it at rung 1 too, where its 1 lets trial 3's 0.05 be the second
// best of 4 (promoted) instead of the worse of 3 (pruned, as in Optuna).
func TestSuccessiveHalvingJumpDeviation(t *testing.T) {
	p := SuccessiveHalving{MinResource: 1, ReductionFactor: 2}
	a, b := done(at(1, 0, 2, 0)), done(at(1, 0.1, 2, 0.1))
	jumped := Trial{State: Pruned, Curve: at(2, 1)}
	if s, tr := studyOf(false, a, b, jumped, running(at(1, 0.5, 2, 0.05))); p.Prune(s, tr) {
		t.Error("the trial pruned at a jump does not count at the higher rung")
	}
	if s, tr := studyOf(false, a, b, running(at(1, 0.5, 2, 0.05))); !p.Prune(s, tr) {
		t.Error("without the jumped trial: not pruned")
	}
}
