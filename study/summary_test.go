package study

import (
	"testing"

	"github.com/boaopt/boa/storage"
)

// one is the objective of a single-objective study in direction d.
func one(d Direction) []Goal { return []Goal{{Name: DefaultObjective, Direction: d}} }

func TestSummarize(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	recs := []storage.Trial{
		{Number: 0, State: Complete, Value: v(3), RetryOf: -1},
		{Number: 1, State: Failed, RetryOf: -1}, // interrupted, re-run by 4
		{Number: 2, State: Complete, Value: v(1), RetryOf: -1},
		{Number: 3, State: Pruned, Value: v(0), RetryOf: -1}, // PRUNED: never the best
		{Number: 4, State: Waiting, RetryOf: 1},
		{Number: 5, State: Complete, Value: v(1), RetryOf: -1}, // ties go to the earlier trial
		{Number: 6, State: Running, RetryOf: -1},
	}
	sum := Summarize(one(Minimize), recs)
	if sum.Trials != 7 || sum.Used != 6 || sum.Finished != 4 || sum.ReRuns != 1 || sum.Best != 2 {
		t.Errorf("minimize: %+v, want 7 trials, 6 used, 4 finished, 1 re-run, best 2", sum)
	}
	if sum.States[Complete] != 3 || sum.States[Running] != 1 || sum.States[Waiting] != 1 {
		t.Errorf("states %v", sum.States)
	}
	if b := Summarize(one(Maximize), recs).Best; b != 0 {
		t.Errorf("maximize: best %d, want 0", b)
	}
	if b := Summarize(one(Minimize), recs[1:2]).Best; b != -1 {
		t.Errorf("no COMPLETE trial: best %d, want -1", b)
	}
}
