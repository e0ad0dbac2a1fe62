package study

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
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
	Values  []float64          // every objective's value of a COMPLETE trial of a multi-objective study (Study.Objectives' order); nil otherwise
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

// Float returns the float or ordinal parameter name. A trial has no
// such parameter when its name is misspelt, when it is of another kind,
// or when it is conditional and inactive in this configuration (test
// t.Params[name] first, or its parents' values): Float then panics with
// a *ParamAccessError, which Optimize turns into the trial's FAILED
// reason, its message alone (`trial 3 has no parameter "lrr"
// (parameters: lr, depth)`), without a stack trace or "panicked". A
// panic is the error path because an objective reads many parameters
// and each read checked by hand would bury it; with Ask and Tell,
// recover it, or test t.Params.
func (t *Trial) Float(name string) float64 { return param[float64](t, name) }

// Int returns the integer parameter name (panics like Float).
func (t *Trial) Int(name string) int { return param[int](t, name) }

// String returns the categorical parameter name (panics like Float).
func (t *Trial) String(name string) string { return param[string](t, name) }

// Bool returns the boolean parameter name (panics like Float).
func (t *Trial) Bool(name string) bool { return param[bool](t, name) }

// ParamAccessError is the panic of Float, Int, String and Bool for a
// parameter the trial does not have, or has of another kind.
type ParamAccessError struct {
	Trial int    // the trial's number
	Name  string // the parameter asked for
	msg   string
}

func (e *ParamAccessError) Error() string { return e.msg }

func param[T any](t *Trial, name string) T {
	v, ok := t.Params[name]
	if !ok {
		panic(t.missing(name))
	}
	x, ok := v.(T)
	if !ok {
		var zero T
		panic(&ParamAccessError{Trial: t.Number, Name: name, msg: fmt.Sprintf("trial %d: parameter %q is %s, not %s: read it with t.%s(%q)",
			t.Number, name, kindOf(v), kindOf(zero), accessor(v), name)})
	}
	return x
}

// missing is the error for a parameter t does not have: inactive here, or
// not in the space at all, with the names it has.
func (t *Trial) missing(name string) *ParamAccessError {
	var names []string
	if t.study != nil {
		names = t.study.space.Names()
	} else {
		names = slices.Sorted(maps.Keys(t.Params))
	}
	msg := fmt.Sprintf("trial %d has no parameter %q (parameters: %s)", t.Number, name, strings.Join(names, ", "))
	if slices.Contains(names, name) {
		msg = fmt.Sprintf("trial %d has no parameter %q: it is conditional and inactive in this configuration (test t.Params[%q] first)", t.Number, name, name)
	}
	return &ParamAccessError{Trial: t.Number, Name: name, msg: msg}
}

func kindOf(v any) string {
	switch v.(type) {
	case float64:
		return "a float"
	case int:
		return "an int"
	case string:
		return "a string (categorical)"
	case bool:
		return "a bool"
	}
	return fmt.Sprintf("a %T", v)
}

func accessor(v any) string {
	switch v.(type) {
	case int:
		return "Int"
	case string:
		return "String"
	case bool:
		return "Bool"
	}
	return "Float"
}

// fromRecord rebuilds a trial from storage; values are turned back into
// the user's sense by the caller's direction.
func fromRecord(sp *space.Space, r storage.Trial) (Trial, error) {
	t := Trial{
		ID: r.ID, Number: r.Number, X: r.X, State: r.State, Values: r.Values, Metrics: r.Metrics, Reports: r.Reports,
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
