package study

import (
	"context"
	"fmt"

	"github.com/boaopt/boa/storage"
)

// Summary is a study at a glance, counted from its stored trials: what
// `boa run` reports when it starts and what GET /api/v1/studies answers.
// Its counts follow the budget's rule: a trial that was interrupted or
// lost (FAILED and re-queued) gives its place in the budget to its re-run.
type Summary struct {
	Trials int           // stored trials, re-runs included
	Used   int           // trials that use the budget
	States map[State]int // trials per state
	// Finished counts the finished trials that hold a place in the
	// budget. Trials still RUNNING hold their places too but are not
	// counted: they may belong to a killed process, and then their
	// re-runs are yet to run.
	Finished int
	ReRuns   int // re-runs of interrupted or lost trials waiting to run
	// Feasible and Infeasible count the COMPLETE trials judged against
	// the study's constraints; both are 0 in a study without any.
	Feasible, Infeasible int
	// Best is the index of the best COMPLETE trial in the study's
	// direction (of equal ones, the first), -1 when there is none. PRUNED
	// trials do not count, nor infeasible ones [spec
	// constrained-autotinyml §1]: in a constrained study Best is the best
	// feasible trial.
	Best int
	// Front are the indices of the Pareto-optimal trials of a
	// multi-objective study (Study.Front), in trial order; nil in a
	// single-objective one. Best is then the one best in the first
	// objective.
	Front []int
}

// NoBest says why there is no best trial (Best < 0): "no COMPLETE trial
// yet", or "no feasible trial yet: 7 complete, all infeasible".
func (s Summary) NoBest() string {
	if s.Infeasible > 0 {
		return fmt.Sprintf("no feasible trial yet: %d complete, all infeasible", s.Infeasible)
	}
	return "no COMPLETE trial yet"
}

// Summarize summarises the stored trials recs, in order, of a study with
// the objectives objs (ObjectivesOf); their reports are not needed.
func Summarize(objs []Goal, recs []storage.Trial) Summary {
	sum := Summary{Trials: len(recs), Used: used(recs), States: map[State]int{}, Best: bestOf(objs, recs)}
	if len(objs) > 1 {
		sum.Front = frontOf(objs, recs)
	}
	retried := make(map[int]bool)
	for _, r := range recs {
		sum.States[r.State]++
		if r.State == Complete && r.Feasible != nil {
			if *r.Feasible {
				sum.Feasible++
			} else {
				sum.Infeasible++
			}
		}
		if r.RetryOf >= 0 {
			retried[r.RetryOf] = true
			if r.State == Waiting {
				sum.ReRuns++
			}
		}
	}
	for _, r := range recs {
		if r.State.Finished() && !retried[r.Number] {
			sum.Finished++
		}
	}
	return sum
}

// Summary summarises the study's trials now (Summarize).
func (s *Study) Summary(ctx context.Context) (Summary, error) {
	recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
	if err != nil {
		return Summary{}, s.errorf("load trials: %w", err)
	}
	return Summarize(s.objs, recs), nil
}
