package study

import (
	"context"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/storage"
)

// pruneDirection is the sense of the reports the pruner compares: that
// of the objective the pruner names (pruner.Spec.Objective), else the
// first objective's.
func (s *Study) pruneDirection() Direction {
	for _, o := range s.objs {
		if o.Name == s.prnSpec.Objective {
			return o.Direction
		}
	}
	return s.dir
}

// ShouldPrune reports whether running trial id should stop early, by the
// study's pruner, after its latest report: Optuna's trial.should_prune.
// It is false for a study without a pruner and for a trial without
// reports. The objective decides what to do with the answer: an Objective
// of Optimize returns its last value with ErrPruned, and `boa run` and
// `boa worker` stop a command trial and record it PRUNED. In a
// multi-objective study the reports are values of the objective the
// pruner names (pruner.Spec.Objective), the first by default, and are
// compared in its direction.
func (s *Study) ShouldPrune(ctx context.Context, id int64) (bool, error) {
	if s.pruner == nil {
		return false, nil
	}
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return false, s.errorf("load trials: %w", err)
	}
	snap := pruner.Study{Name: s.rec.Name, Maximize: s.pruneDirection() == Maximize, Trials: make([]pruner.Trial, 0, len(recs))}
	self := -1
	for _, r := range recs {
		if r.ID == id && r.State != Running {
			if r.State == Waiting {
				return false, s.errorf("trial %d: %w", r.Number, ErrNotRunning)
			}
			return false, s.errorf("trial %d is %s: %w", r.Number, r.State, ErrFinished)
		}
		var st pruner.State
		switch r.State {
		case Running:
			st = pruner.Running
		case Complete:
			st = pruner.Complete
		case Pruned:
			st = pruner.Pruned
		case Failed:
			st = pruner.Failed
		default: // WAITING: nothing reported yet
			continue
		}
		curve := make([]pruner.Point, len(r.Reports))
		for i, p := range r.Reports {
			curve[i] = pruner.Point{Step: p.Step, Value: p.Value}
		}
		if r.ID == id {
			self = len(snap.Trials)
		}
		snap.Trials = append(snap.Trials, pruner.Trial{Number: r.Number, State: st, Curve: curve})
	}
	if self < 0 {
		return false, s.errorf("trial id %d: %w", id, storage.ErrNotFound)
	}
	t := snap.Trials[self]
	if len(t.Curve) == 0 {
		return false, nil
	}
	return s.pruner.Prune(snap, t), nil
}
