package study

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// State is the life-cycle state of a trial: WAITING → RUNNING → COMPLETE,
// PRUNED or FAILED.
type State = storage.State

const (
	Waiting  = storage.Waiting
	Running  = storage.Running
	Complete = storage.Complete
	Pruned   = storage.Pruned
	Failed   = storage.Failed
)

// Report is one intermediate value of a trial (a learning-curve point).
type Report = storage.Report

// Trial is one evaluation of the objective.
type Trial struct {
	ID      int64            // unique in the storage
	Number  int              // 0-based position in the study
	Params  space.Assignment // the configuration, in the user's units
	X       []float64        // the same configuration encoded in the unit cube
	State   State
	Value   float64            // the objective in the user's sense (COMPLETE trials; PRUNED ones: the value they stopped at)
	Metrics map[string]float64 // extra metrics; an objective may set them while it runs
	Reports []Report           // intermediate values, ordered by step
	Reason  string             // why the trial FAILED, or why a COMPLETE one is infeasible
	// Feasible says whether a COMPLETE trial met the study's constraints;
	// nil when it was not judged: the study has none, or the trial did not
	// complete.
	Feasible *bool
	Worker   string         // who ran it
	RetryOf  int            // number of the trial this one re-runs after a crash, or -1
	Batch    int            // the batch AskBatch proposed it in (shared by its trials), or 0
	Origin   sampler.Origin // how its point was chosen: design, model, user (enqueued), or "" (not recorded)
	LogPath  string
	Started  time.Time
	Finished time.Time

	study *Study // for Report; nil on trials read back from Trials
}

// Report records an intermediate value (e.g. the validation loss after
// an epoch) while the trial runs, as BOA_REPORT lines do for commands.
func (t *Trial) Report(ctx context.Context, step int64, value float64) error {
	if t.study == nil {
		return fmt.Errorf("trial %d is not running in this process", t.Number)
	}
	return t.study.Report(ctx, t.ID, step, value)
}

// ShouldPrune reports whether the study's pruner stops this trial after
// its latest report (Optuna's trial.should_prune); an objective then
// returns its last value with ErrPruned. Without a pruner it is false.
func (t *Trial) ShouldPrune(ctx context.Context) (bool, error) {
	if t.study == nil {
		return false, fmt.Errorf("trial %d is not running in this process", t.Number)
	}
	return t.study.ShouldPrune(ctx, t.ID)
}

// Float returns the float or ordinal parameter name. It panics when the
// parameter is absent or of another kind; Optimize turns the panic into a
// FAILED trial whose reason says so. A conditional parameter is absent
// while inactive: test t.Params[name] first, or its parents' values.
func (t *Trial) Float(name string) float64 { return param[float64](t, name) }

// Int returns the integer parameter name (panics like Float).
func (t *Trial) Int(name string) int { return param[int](t, name) }

// String returns the categorical parameter name (panics like Float).
func (t *Trial) String(name string) string { return param[string](t, name) }

// Bool returns the boolean parameter name (panics like Float).
func (t *Trial) Bool(name string) bool { return param[bool](t, name) }

func param[T any](t *Trial, name string) T {
	v, ok := t.Params[name]
	if !ok {
		panic(fmt.Sprintf("trial %d has no parameter %q (inactive or not in the space)", t.Number, name))
	}
	x, ok := v.(T)
	if !ok {
		var zero T
		panic(fmt.Sprintf("parameter %q is %T, not %T", name, v, zero))
	}
	return x
}

// fromRecord rebuilds a trial from storage; values are turned back into
// the user's sense by the caller's direction.
func fromRecord(sp *space.Space, r storage.Trial) (Trial, error) {
	t := Trial{
		ID: r.ID, Number: r.Number, X: r.X, State: r.State, Metrics: r.Metrics, Reports: r.Reports,
		Reason: r.Reason, Feasible: r.Feasible, Worker: r.Worker, RetryOf: r.RetryOf, Batch: r.Batch, Origin: sampler.Origin(r.Origin), LogPath: r.LogPath,
		Started: r.Started, Finished: r.Finished,
	}
	if r.Value != nil {
		t.Value = *r.Value
	}
	var raw map[string]any
	if err := json.Unmarshal(r.Params, &raw); err != nil {
		return t, fmt.Errorf("trial %d: stored params are not a JSON object: %w", r.Number, err)
	}
	p, err := sp.Canonical(raw)
	if err != nil {
		return t, fmt.Errorf("trial %d: stored params do not fit the space: %w", r.Number, err)
	}
	t.Params = p
	return t, nil
}
