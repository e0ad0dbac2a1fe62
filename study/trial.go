package study

import (
	"fmt"
	"time"

	"github.com/boaopt/boa/space"
)

// State is the life-cycle state of a trial.
type State int

const (
	Waiting State = iota
	Running
	Complete
	Pruned
	Failed
)

var stateNames = [...]string{"WAITING", "RUNNING", "COMPLETE", "PRUNED", "FAILED"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Finished reports whether the trial has reached a final state.
func (s State) Finished() bool { return s == Complete || s == Pruned || s == Failed }

// Trial is one evaluation of the objective.
type Trial struct {
	Number   int              // 0-based position in the study
	Params   space.Assignment // the configuration, in the user's units
	X        []float64        // the same configuration encoded in the unit cube
	State    State
	Value    float64 // the objective value in the user's sense (COMPLETE trials)
	Reason   string  // why the trial FAILED
	Started  time.Time
	Finished time.Time
}

// Float returns the float or ordinal parameter name. It panics when the
// parameter is absent or of another kind; Optimize turns the panic into a
// FAILED trial whose reason says so.
func (t Trial) Float(name string) float64 { return param[float64](t, name) }

// Int returns the integer parameter name (panics like Float).
func (t Trial) Int(name string) int { return param[int](t, name) }

// String returns the categorical parameter name (panics like Float).
func (t Trial) String(name string) string { return param[string](t, name) }

// Bool returns the boolean parameter name (panics like Float).
func (t Trial) Bool(name string) bool { return param[bool](t, name) }

func param[T any](t Trial, name string) T {
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

func (t *Trial) clone() Trial {
	c := *t
	c.X = append([]float64(nil), t.X...)
	c.Params = make(space.Assignment, len(t.Params))
	for k, v := range t.Params {
		c.Params[k] = v
	}
	return c
}
