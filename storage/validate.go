package storage

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/boaopt/boa/internal/proc"
)

// Every back-end validates through these functions so that all three accept
// and reject exactly the same inputs (the conformance suite checks it).
// Their errors wrap ErrInvalid.

// invalid is fmt.Errorf wrapping ErrInvalid as well.
func invalid(format string, args ...any) error {
	return invalidError{fmt.Errorf(format, args...)}
}

type invalidError struct{ error }

func (e invalidError) Unwrap() []error { return []error{e.error, ErrInvalid} }

func validateStudy(s Study) error {
	if s.Name == "" {
		return invalid("storage: create study: empty name")
	}
	if s.Direction != "minimize" && s.Direction != "maximize" {
		return invalid("storage: create study %q: direction %q: want minimize or maximize", s.Name, s.Direction)
	}
	if err := validJSON(s.Space); err != nil {
		return invalid("storage: create study %q: space: %w", s.Name, err)
	}
	if err := validJSON(s.Config); err != nil {
		return invalid("storage: create study %q: config: %w", s.Name, err)
	}
	if s.Budget < 0 {
		return invalid("storage: create study %q: negative budget %d", s.Name, s.Budget)
	}
	return nil
}

func validateNewTrial(t Trial) error {
	if t.State != Waiting && t.State != Running {
		return invalid("storage: add trial to study %d: state %v: a new trial is WAITING or RUNNING", t.StudyID, t.State)
	}
	if err := validJSON(t.Params); err != nil {
		return invalid("storage: add trial to study %d: params: %w", t.StudyID, err)
	}
	for i, x := range t.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return invalid("storage: add trial to study %d: X[%d] = %v is not finite", t.StudyID, i, x)
		}
	}
	if t.RetryOf < -1 {
		return invalid("storage: add trial to study %d: RetryOf = %d: want -1 (no retry) or a trial number", t.StudyID, t.RetryOf)
	}
	if t.Batch < 0 {
		return invalid("storage: add trial to study %d: Batch = %d: want 0 (no batch) or a positive batch number", t.StudyID, t.Batch)
	}
	return nil
}

// retryTargetError explains why a trial cannot be re-run; it is shared so
// the message is the same everywhere.
func retryTargetError(studyID int64, retryOf int, why string) error {
	return invalid("storage: add trial to study %d: RetryOf = %d %s (set RetryOf = -1 for a trial that re-runs nothing)", studyID, retryOf, why)
}

// retryExistsError: the trial was re-queued already (by a reaper or another
// process); it wraps ErrExists so callers can treat it as done.
func retryExistsError(studyID int64, retryOf int) error {
	return fmt.Errorf("storage: add trial to study %d: trial %d was already re-queued: %w", studyID, retryOf, ErrExists)
}

func validateFinish(id int64, f Finish) error {
	if !f.State.Finished() {
		return invalid("storage: finish trial %d: state %v is not a final state (COMPLETE, PRUNED or FAILED)", id, f.State)
	}
	if f.Requeue && f.State != Failed {
		return invalid("storage: finish trial %d: only a FAILED trial is re-queued, not a %v one", id, f.State)
	}
	if f.State == Complete && f.Value == nil {
		return invalid("storage: finish trial %d: a COMPLETE trial needs a value", id)
	}
	if f.Feasible != nil && f.State != Complete {
		return invalid("storage: finish trial %d: only a COMPLETE trial is judged feasible or not, not a %v one", id, f.State)
	}
	if f.Value != nil && !finite(*f.Value) {
		return invalid("storage: finish trial %d: value %v is not finite (record the trial as FAILED instead)", id, *f.Value)
	}
	if len(f.Values) > 0 {
		if f.State != Complete {
			return invalid("storage: finish trial %d: only a COMPLETE trial has objective values, not a %v one", id, f.State)
		}
		if *f.Value != f.Values[0] {
			return invalid("storage: finish trial %d: value %v is not the first objective's value %v", id, *f.Value, f.Values[0])
		}
		for i, v := range f.Values {
			if !finite(v) {
				return invalid("storage: finish trial %d: objective %d's value %v is not finite (record the trial as FAILED instead)", id, i, v)
			}
		}
	}
	if err := storable(f.Reason); err != nil {
		return invalid("storage: finish trial %d: reason: %w", id, err)
	}
	for k, v := range f.Metrics {
		if err := storable(k); err != nil {
			return invalid("storage: finish trial %d: metric name: %w", id, err)
		}
		if !finite(v) {
			return invalid("storage: finish trial %d: metric %q = %v is not finite", id, k, v)
		}
	}
	return nil
}

func validateReport(id, step int64, value float64) error {
	if step < 0 {
		// As in Optuna: steps count epochs or iterations from 0, and
		// pruners compare trials at the same step.
		return invalid("storage: report for trial %d: step %d is negative", id, step)
	}
	if !finite(value) {
		return invalid("storage: report for trial %d: value %v is not finite", id, value)
	}
	return nil
}

func validateLock(studyID int64, ttl time.Duration) error {
	if ttl <= 0 {
		return invalid("storage: lock study %d: lease ttl %v must be positive", studyID, ttl)
	}
	return nil
}

func validJSON(b json.RawMessage) error {
	if len(b) > 0 && !json.Valid(b) {
		return fmt.Errorf("invalid JSON %.40q", b)
	}
	return nil
}

// storable refuses text that not every back-end can keep: PostgreSQL's
// text and jsonb take neither NUL nor invalid UTF-8, so none of the three
// takes them.
func storable(s string) error {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return fmt.Errorf("%.40q contains a NUL byte", s)
	case !utf8.ValidString(s):
		return fmt.Errorf("%.40q is not valid UTF-8", s)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// clock returns now in UTC, truncated to the microsecond the SQL back-ends
// store, so a value returned by a write equals the one read back later.
func clock(now func() time.Time) time.Time { return now().UTC().Truncate(time.Microsecond) }

func staleReason(heartbeat time.Time) string {
	return "stale: no heartbeat since " + heartbeat.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// reapReason is why Reap fails t: its worker is one of the dead (proven
// gone by the caller, package internal/proc), or its heartbeats stopped.
// Both start "stale: ", which lost recognises.
func reapReason(t Trial, dead []string) string {
	if slices.Contains(dead, t.Worker) {
		return "stale: its process " + proc.Describe(t.Worker) + " is gone"
	}
	return staleReason(t.Heartbeat)
}

// lost reports whether a FAILED trial's reason is Reap's: its worker died.
func lost(reason string) bool { return strings.HasPrefix(reason, "stale: ") }

func cloneRaw(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

func cloneFloats(x []float64) []float64 {
	if x == nil {
		return nil
	}
	return append([]float64{}, x...)
}

func cloneMap[V any](m map[string]V) map[string]V {
	if len(m) == 0 {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

func cloneStudy(s Study) Study {
	s.Space = cloneRaw(s.Space)
	s.Config = cloneRaw(s.Config)
	s.Attrs = cloneMap(s.Attrs)
	return s
}

func cloneTrial(t Trial) Trial {
	t.Params = cloneRaw(t.Params)
	t.X = cloneFloats(t.X)
	t.Values = cloneFloats(t.Values)
	if t.Value != nil {
		v := *t.Value
		t.Value = &v
	}
	if t.Feasible != nil {
		f := *t.Feasible
		t.Feasible = &f
	}
	t.Metrics = cloneMap(t.Metrics)
	if len(t.Reports) == 0 {
		t.Reports = nil
	} else {
		t.Reports = append([]Report(nil), t.Reports...)
	}
	return t
}
