package pruner

import (
	"slices"
	"testing"
)

// Bracket count and allocation for max_resource 81, η = 3 (spec §10):
// n_b = ⌊log₃ 81⌋ + 1 = 5, weights ⌈5·3^s/(s+1)⌉ for s = 4…0.
func TestHyperbandBrackets(t *testing.T) {
	n := brackets(1, 81, 3)
	if n != 5 {
		t.Fatalf("brackets(1, 81, 3) = %d, want 5", n)
	}
	if got, want := bracketWeights(n, 3), []int64{81, 34, 15, 8, 5}; !slices.Equal(got, want) {
		t.Errorf("weights = %v, want %v", got, want)
	}
	for _, tc := range []struct {
		minRes, maxRes int64
		eta, want      int
	}{
		{1, 80, 3, 4},
		{1, 243, 3, 5}, // Optuna's floating point: log(243)/log(3) = 4.999999999999999
		{2, 486, 3, 5},
		{1, 244, 3, 6},
		{1, 1, 3, 1},
		{1, 64, 2, 7},
		{1, 100, 4, 4},
		{3, 1, 3, 0}, // max below min: no bracket, Optuna never prunes
	} {
		if got := brackets(tc.minRes, tc.maxRes, tc.eta); got != tc.want {
			t.Errorf("brackets(%d, %d, %d) = %d, want %d", tc.minRes, tc.maxRes, tc.eta, got, tc.want)
		}
	}
	// Saturated weights for an absurd range keep the sum positive.
	var sum int64
	for _, w := range bracketWeights(brackets(1, 1<<62, 2), 2) {
		if w <= 0 {
			t.Fatalf("weight %d", w)
		}
		sum += w
	}
	if sum <= 0 {
		t.Errorf("weights sum to %d", sum)
	}
}

// Brackets of the first trials of studies "foo" and "parity" with the
// weights of max_resource 81, η = 3, as Optuna's _get_bracket_id computes
// them (binascii.crc32 of "foo_0", …).
func TestHyperbandBracketOf(t *testing.T) {
	w := []int64{81, 34, 15, 8, 5}
	for name, want := range map[string][]int{
		"foo":    {0, 1, 0, 2, 0, 2, 0, 3, 0, 2, 0, 4},
		"parity": {2, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1},
	} {
		var got []int
		for n := range want {
			got = append(got, bracketOf(name, n, w))
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: brackets %v, want %v", name, got, want)
		}
	}
}

// A trial competes only with its bracket, at its bracket's rungs.
func TestHyperband(t *testing.T) {
	// Study "foo", max_resource 81, η = 3: trials 0, 2, 4 in bracket 0
	// (rungs at 1, 3, 9, …), 1 in bracket 1 (rungs at 3, 9, …), 3 and 5
	// in bracket 2 (rungs at 9, 27).
	h := Hyperband{MinResource: 1, MaxResource: 81, ReductionFactor: 3}
	foo := func(trials ...Trial) (Study, Trial) {
		s, tr := studyOf(false, trials...)
		s.Name = "foo"
		return s, tr
	}
	for _, tc := range []struct {
		name   string
		trials []Trial
		want   bool
	}{
		{"bracket 0, worse at 1", []Trial{done(at(1, 0)), done(at(1, 9)), running(at(1, 5))}, true},
		{"bracket 1, not at 1", []Trial{done(at(1, 0)), running(at(1, 5))}, false},
		{"bracket 1, alone at 3", []Trial{done(at(1, 0, 3, 0)), running(at(1, 5, 3, 5))}, false},
		{"bracket 2, others elsewhere", []Trial{done(at(9, 0)), done(at(9, 0)), done(at(9, 0)), running(at(9, 5))}, false},
		{"bracket 2, trial 3 better", []Trial{done(at(9, 0)), done(at(9, 0)), done(at(9, 0)), done(at(9, 1)), done(at(9, 0)), running(at(9, 5))}, true},
	} {
		s, tr := foo(tc.trials...)
		if got := h.Prune(s, tr); got != tc.want {
			t.Errorf("%s: Prune = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Auto max_resource: no pruning before a trial completes; then the
	// largest last step + 1.
	auto := NewHyperband()
	if s, tr := foo(running(at(1, 0)), running(at(1, 9)), running(at(1, 5))); auto.Prune(s, tr) {
		t.Error("auto: pruned with no complete trial")
	}
	if s, tr := foo(done(at(1, 0, 80, 0)), done(at(1, 9)), running(at(1, 5))); !auto.Prune(s, tr) {
		t.Error("auto, max_resource 81: trial 2 not pruned in bracket 0")
	}
}
