package api

import "time"

// Trial is a trial as GET /api/v1/studies/{name}/trials and .../best
// answer it. Every field but feasible is always written: null for what a
// trial does not have (a value, a start or finish time, retry_of, batch),
// {} and [] for no metrics and no reports. Feasible is written for the
// COMPLETE trials of a study with constraints only, so that an
// unconstrained study's trials read as before.
//
// P is how the parameters are held: the server writes the stored JSON
// text as it is (json.RawMessage), the client reads them into a
// map[string]any (numbers as json.Number, their exact text), and boa
// export writes the study's space.Assignment.
type Trial[P any] struct {
	ID       int64              `json:"id"`
	Number   int                `json:"number"`
	State    string             `json:"state"` // WAITING, RUNNING, COMPLETE, PRUNED or FAILED; "" in an ask's answer (RUNNING)
	Params   P                  `json:"params"`
	Value    *float64           `json:"value"`            // COMPLETE trials, and PRUNED ones: the value they stopped at
	Values   []float64          `json:"values,omitempty"` // a COMPLETE trial of a multi-objective study: every objective's value, in the study's order
	Metrics  map[string]float64 `json:"metrics"`
	Reports  []Report           `json:"reports"`
	Reason   string             `json:"reason"`             // why it FAILED, or why a COMPLETE trial is infeasible
	Feasible *bool              `json:"feasible,omitempty"` // whether a COMPLETE trial met the study's constraints; absent when not judged
	Worker   string             `json:"worker"`
	Started  *time.Time         `json:"started"`
	Finished *time.Time         `json:"finished"`
	RetryOf  *int               `json:"retry_of"` // the number of the crashed trial this one re-runs
	Batch    *int               `json:"batch"`    // shared by the trials one ask proposed together
	Origin   string             `json:"origin"`   // how its point was chosen: design, model, user (queued), or "" (not recorded)
}

// Report is one intermediate value of a trial.
type Report struct {
	Step  int64   `json:"step"`
	Value float64 `json:"value"`
}

// Time is t for JSON: null when t is zero (not started, not finished).
func Time(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// RetryOf is a trial's retry_of: null for a trial that re-runs none
// (n < 0).
func RetryOf(n int) *int {
	if n < 0 {
		return nil
	}
	return &n
}

// Batch is a trial's batch number: null for a trial no ask proposed
// (b <= 0: enqueued with POST .../trials, or stored before schema
// version 2).
func Batch(b int) *int {
	if b <= 0 {
		return nil
	}
	return &b
}
