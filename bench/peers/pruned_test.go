package peers

import (
	"context"
	"testing"

	"github.com/boaopt/boa/space"
)

// TestOptunaHyperband drives optuna-tpe-hb through its reports: each trial
// reports x + 1/step after steps 1..8 and completes at 9, and Optuna's
// HyperbandPruner (1, 9, η = 3) stops some of them, which are told as
// pruned. A report of a trial that is not out is refused.
func TestOptunaHyperband(t *testing.T) {
	need(t, OptunaTPEHB)
	ctx := context.Background()
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	s, err := NewPruned(ctx, OptunaTPEHB, sp, 1, Pruning{MinResource: 1, MaxResource: 9, ReductionFactor: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pruned := 0
	for range 30 {
		id, a, err := s.AskTrial(ctx)
		if err != nil {
			t.Fatal(err)
		}
		x := a["x"].(float64)
		stopped := false
		for step := int64(1); step < 9 && !stopped; step++ {
			v := x + 1/float64(step)
			if err := s.Report(ctx, id, step, v); err != nil {
				t.Fatal(err)
			}
			if stopped, err = s.ShouldPrune(ctx, id); err != nil {
				t.Fatal(err)
			}
			if stopped {
				pruned++
				if err := s.Prune(ctx, id, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		if !stopped {
			if err := s.TellTrial(ctx, id, x+1.0/9); err != nil {
				t.Fatal(err)
			}
		}
	}
	if pruned == 0 || pruned == 30 {
		t.Errorf("%d of 30 trials pruned", pruned)
	}
	t.Logf("%d of 30 trials pruned", pruned)
	if err := s.Report(ctx, 999, 1, 0.5); err == nil {
		t.Error("a report of trial 999, which is not out, was accepted")
	}
}
