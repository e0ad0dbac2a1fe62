package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/boaopt/boa/storage"
)

// Result is what a finished trial reports.
type Result struct {
	Value float64 // the objective in the user's sense
	// Values are every objective's value in a multi-objective study, in
	// the order of Study.Objectives, each in its own sense; Value is then
	// ignored. A trial whose values do not match the objectives in number
	// FAILS with a reason that says so.
	Values  []float64
	Err     error              // non-nil: the trial FAILED with this reason
	Pruned  bool               // stopped early by a pruner; Value is the last intermediate value
	Metrics map[string]float64 // extra metrics and the values Spec.Constraints limit; NaN ones make the trial infeasible
	// Requeue (with Err) says the trial was interrupted, not at fault: its
	// configuration is run again. An Err wrapping context.Canceled or
	// context.DeadlineExceeded says the same.
	Requeue bool
}

// Tell records the result of trial id; ErrFinished (wrapped) when it
// already has one, even the same: a result is final. A WAITING trial (not
// yet asked for) takes only an error, which cancels it; a value for it is
// ErrNotRunning, as Optuna refuses to tell a WAITING trial. An error, or a value that is NaN,
// infinite or one the study's transform cannot take (log: not > 0), marks
// the trial FAILED with the reason; the study is otherwise unaffected. An
// interrupted trial (Result.Requeue) is FAILED with its reason and its
// configuration re-queued, in one transaction, so that a resumed study
// runs it again; also when it is itself a re-run, since an interruption
// says nothing about the configuration (a trial whose process died is
// re-run once only, by the storage's Reap: a configuration that kills its
// worker twice should not be tried forever). A NUL
// byte or invalid UTF-8 in the reason or a metric name (a crashing
// program's output) becomes U+FFFD, which every storage can keep.
//
// In a study with constraints a COMPLETE trial is judged by the metrics
// it reported (constraint.Set.Check): its verdict is stored with it, and
// the reason says which limits did not hold. A FAILED trial was not
// computable and a PRUNED one has no final value: neither is judged
// [spec constrained-autotinyml §1]. NaN and infinite metrics are judged
// (a NaN limit metric does not hold) before they are dropped, since no
// storage keeps them. The metrics the study knows before evaluation
// (SetKnown) complete those the trial reported.
func (s *Study) Tell(ctx context.Context, id int64, r Result) error {
	if r.Err == nil {
		m, err := s.withKnown(ctx, id, r.Metrics)
		if err != nil {
			return s.errorf("tell trial %d: %w", id, err)
		}
		r.Metrics = m
	}
	if err := s.store.FinishTrial(ctx, id, s.finish(r)); err != nil {
		return s.errorf("tell trial %d: %w", id, err)
	}
	return nil
}

// finish is what Tell records for r.
func (s *Study) finish(r Result) storage.Finish {
	f := storage.Finish{State: Complete, Metrics: finite(r.Metrics)}
	if r.Err != nil {
		f.State, f.Reason, f.Requeue = Failed, storable(r.Err.Error()), interrupted(r)
		return f
	}
	if r.Pruned {
		// The last intermediate value, of the objective the pruner
		// compares (pruner.Spec.Objective).
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			f.State, f.Reason = Failed, fmt.Sprintf("objective returned %v", r.Value)
		} else {
			f.State, f.Value = Pruned, &r.Value
		}
		return f
	}
	v, values, reason := s.values(r)
	switch {
	case reason != "":
		f.State, f.Reason = Failed, reason
	default:
		f.Value, f.Values = &v, values
		if err := s.tf.Check(v); err != nil {
			f.State, f.Value, f.Reason = Failed, nil, fmt.Sprintf("objective returned %v, but %v", v, err)
		} else if len(s.cons) > 0 {
			v := s.cons.Check(r.Metrics)
			f.Feasible, f.Reason = &v.Feasible, storable(v.Reason)
		}
	}
	return f
}

func interrupted(r Result) bool {
	return r.Requeue || errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded)
}

// finite drops NaN and infinite metrics, which no storage can keep, and
// makes the names storable.
func finite(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[storable(k)] = v
		}
	}
	return out
}

// storable replaces what storage refuses in text (storage.ErrInvalid): NUL
// bytes and invalid UTF-8 become U+FFFD.
func storable(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

// Heartbeat tells the storage that trial id is still running.
func (s *Study) Heartbeat(ctx context.Context, id int64) error {
	return s.store.Heartbeat(ctx, id)
}

// Report records an intermediate value of running trial id; a second
// report for the same step replaces the first. Steps count from 0 (epochs
// or iterations, as in Optuna); a negative step is an error, as is a
// finished or WAITING trial.
func (s *Study) Report(ctx context.Context, id int64, step int64, value float64) error {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return s.errorf("trial %d: intermediate value at step %d is %v", id, step, value)
	}
	return s.store.Report(ctx, id, step, value)
}
