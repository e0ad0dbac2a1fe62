package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/boaopt/boa/api"
	"github.com/boaopt/boa/constraint"
)

// Study is a study's summary.
type Study struct {
	Name      string          `json:"name"`
	Direction string          `json:"direction"`
	Sampler   string          `json:"sampler"`
	Choice    string          `json:"auto_choice"` // the sampler auto uses for the space; "" unless Sampler is auto
	Transform string          `json:"transform"`   // what the model is fitted to (log, copula); "" for the values as they are
	Seed      uint64          `json:"seed"`
	Budget    int             `json:"budget"` // trials wanted; 0 means no limit
	Space     json.RawMessage `json:"space"`
	Created   *time.Time      `json:"created"`
	Trials    int             `json:"trials"` // stored trials, re-runs included
	Used      int             `json:"used"`   // trials counted against the budget
	States    map[string]int  `json:"states"` // trials per state (COMPLETE, RUNNING, ...)
	// Constraints are the study's limits on its trials' metrics, nil when
	// it has none; Feasible and Infeasible then count its COMPLETE trials,
	// and the best trial is the best feasible one.
	Constraints constraint.Set `json:"constraints"`
	Feasible    int            `json:"feasible"`
	Infeasible  int            `json:"infeasible"`
	BestValue   *float64       `json:"best_value"`
	BestTrial   *int           `json:"best_trial"`
	// Objectives name a multi-objective study's objectives, the order of
	// its trials' Values, nil for a study of one; Front are the numbers of
	// its Pareto-optimal trials.
	Objectives []Objective `json:"objectives"`
	Front      []int       `json:"front"`
	// Fidelity is what the trials' reports count, nil when the study
	// declares none: a worker passes Max to the command as {Name}.
	Fidelity *Fidelity `json:"fidelity"`
}

// Fidelity is a study's fidelity: the name of the command's placeholder
// and the range of the steps its trials report.
type Fidelity struct {
	Name string `json:"name"`
	Min  int64  `json:"min"`
	Max  int64  `json:"max"`
}

// Objective is one objective of a multi-objective study.
type Objective struct {
	Name      string `json:"name"`
	Direction string `json:"direction"` // minimize or maximize
}

// Trial is one trial, in the API's form (package api). Params values are
// json.Number for numbers (their exact text), string or bool;
// space.Format and runner.Substitute accept them as they are.
type Trial = api.Trial[map[string]any]

// Report is one intermediate value of a trial.
type Report = api.Report

// Batch is an ask's answer.
type Batch struct {
	Trials []Trial // RUNNING trials for the asking worker; empty once the budget is used up
	// Pending counts the study's WAITING and RUNNING trials when Trials is
	// empty. A trial whose worker died is re-queued once its lease lapses,
	// so a worker may keep asking while Pending > 0.
	Pending int
	Lease   time.Duration // heartbeat more often than this; 0 when the server gives no positive lease
}

// Result is what a finished trial reports to Tell.
type Result struct {
	State   string             // "" or "COMPLETE", "PRUNED" or "FAILED"
	Value   float64            // the objective (COMPLETE and PRUNED)
	Values  []float64          // every objective's value, in the study's order (COMPLETE trials of a multi-objective study; Value is then not sent)
	Reason  string             // why it FAILED
	Metrics map[string]float64 // extra metrics and the values the study's constraints limit (NaN allowed)
	// Requeue (FAILED only) asks the server to run the configuration
	// again, once, as after a crash: for a trial the worker interrupted.
	Requeue bool
}

func studyPath(name string) string { return "/api/v1/studies/" + url.PathEscape(name) }
func trialPath(id int64) string    { return "/api/v1/trials/" + strconv.FormatInt(id, 10) }

// CreateStudy creates a study. spec is the study file (DESIGN.md §2.2) as
// anything that encodes to its JSON: a *config.Study, a map, a struct, or
// the JSON itself as []byte or json.RawMessage. A name already taken is an
// *Error with status 409. It is not retried once it may have reached the
// server: after a lost answer, read the study with Study to see whether it
// was created.
func (c *Client) CreateStudy(ctx context.Context, spec any) (Study, error) {
	if raw, ok := spec.(json.RawMessage); ok {
		spec = []byte(raw)
	}
	var s Study
	err := c.doOnce(ctx, "POST", "/api/v1/studies", spec, &s)
	return s, err
}

// Studies lists every study.
func (c *Client) Studies(ctx context.Context) ([]Study, error) {
	var out struct {
		Studies []Study `json:"studies"`
	}
	err := c.do(ctx, "GET", "/api/v1/studies", nil, &out)
	return out.Studies, err
}

// Study returns one study's summary; an *Error with status 404 if there is
// none of that name.
func (c *Client) Study(ctx context.Context, name string) (Study, error) {
	var s Study
	err := c.do(ctx, "GET", studyPath(name), nil, &s)
	return s, err
}

// DeleteStudy removes a study with all its trials and returns how many
// trials it had; an *Error with status 404 if there is none of that name.
// It is not retried once it may have reached the server: after a lost
// answer a second attempt would be a 404 for a study that was deleted.
func (c *Client) DeleteStudy(ctx context.Context, name string) (trials int, err error) {
	var out struct {
		Trials int `json:"trials"`
	}
	err = c.doOnce(ctx, "DELETE", studyPath(name), nil, &out)
	return out.Trials, err
}

// SetBudget sets the number of trials study wants (0: no limit) and
// returns its summary: "run 30, look, run 20 more" on a served study.
func (c *Client) SetBudget(ctx context.Context, study string, trials int) (Study, error) {
	var s Study
	err := c.do(ctx, "PATCH", studyPath(study), map[string]int{"trials": trials}, &s)
	return s, err
}

// Ask asks study for n trials (1 ≤ n ≤ 100) to run as worker ("" lets the
// server name the worker by its address).
//
// Every attempt of one Ask carries the same random request_id, so an
// attempt sent again after a lost answer gets the trials the server
// handed out to the first, not new ones (docs/http-api.md).
func (c *Client) Ask(ctx context.Context, study string, n int, worker string) (Batch, error) {
	var out struct {
		Trials       []Trial `json:"trials"`
		Pending      int     `json:"pending"`
		LeaseSeconds float64 `json:"lease_seconds"`
	}
	// crypto/rand, not c.rng: ids must differ between clients, and
	// WithRand gives clients the same sequence.
	req := map[string]any{"n": n, "request_id": rand.Text()}
	if worker != "" {
		req["worker"] = worker
	}
	if err := c.do(ctx, "POST", studyPath(study)+"/ask", req, &out); err != nil {
		return Batch{}, err
	}
	for i := range out.Trials {
		out.Trials[i].State = "RUNNING"
	}
	// A lease beyond time.Duration's range converted to a negative one
	// (1e300 s became −2562047h), which a caller's ticker would panic on.
	var lease time.Duration
	if d := out.LeaseSeconds * float64(time.Second); d > 0 {
		lease = time.Duration(min(d, 1<<62))
	}
	return Batch{Trials: out.Trials, Pending: out.Pending, Lease: lease}, nil
}

// Enqueue adds params as a WAITING trial that the next ask hands out. It
// is not retried once it may have reached the server (a second attempt
// would add a second trial): after a lost answer, see Trials.
func (c *Client) Enqueue(ctx context.Context, study string, params map[string]any) (Trial, error) {
	var t Trial
	err := c.doOnce(ctx, "POST", studyPath(study)+"/trials", map[string]any{"params": params}, &t)
	return t, err
}

// Tell records the result of trial id. Telling again the result a trial
// already has succeeds; a different one is an *Error with status 409.
func (c *Client) Tell(ctx context.Context, id int64, r Result) error {
	req := map[string]any{}
	if r.State != "" {
		req["state"] = r.State
	}
	if r.State == "FAILED" {
		req["reason"] = r.Reason
		if r.Requeue {
			req["requeue"] = true
		}
	} else if r.Values != nil {
		for i, v := range r.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("tell trial %d: value %d, %v, is not finite; tell it FAILED with the reason instead", id, i, v)
			}
		}
		req["values"] = r.Values
	} else {
		if math.IsNaN(r.Value) || math.IsInf(r.Value, 0) {
			return fmt.Errorf("tell trial %d: value %v is not finite; tell it FAILED with the reason instead", id, r.Value)
		}
		req["value"] = r.Value
	}
	if len(r.Metrics) > 0 {
		// JSON has no NaN nor Infinity: they go as the strings "NaN",
		// "+Inf", "-Inf", which the server reads as a metric's value (a
		// constraint on a NaN metric does not hold).
		m := make(map[string]any, len(r.Metrics))
		for k, v := range r.Metrics {
			m[k] = v
			if math.IsNaN(v) || math.IsInf(v, 0) {
				m[k] = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
		req["metrics"] = m
	}
	return c.do(ctx, "POST", trialPath(id)+"/tell", req, nil)
}

// Report records an intermediate value of a running trial. prune is the
// study's pruner's advice after it (study.ShouldPrune): stop the trial and
// tell it PRUNED with its last value. It is false for a study without a
// pruner, and from a server that does not answer it (204, before boa had
// pruners).
func (c *Client) Report(ctx context.Context, id, step int64, value float64) (prune bool, err error) {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return false, fmt.Errorf("report for trial %d, step %d: value %v is not finite", id, step, value)
	}
	var resp struct {
		Prune bool `json:"prune"`
	}
	err = c.do(ctx, "POST", trialPath(id)+"/report", map[string]any{"step": step, "value": value}, &resp)
	return resp.Prune, err
}

// Heartbeat tells the server that trial id is still running. An *Error
// with status 409 means the trial is no longer RUNNING (e.g. it was taken
// for dead and re-queued): its result will not be accepted.
func (c *Client) Heartbeat(ctx context.Context, id int64) error {
	return c.do(ctx, "POST", trialPath(id)+"/heartbeat", nil, nil)
}

// Trials returns every trial of study, in order.
func (c *Client) Trials(ctx context.Context, study string) ([]Trial, error) {
	var out struct {
		Trials []Trial `json:"trials"`
	}
	err := c.do(ctx, "GET", studyPath(study)+"/trials", nil, &out)
	return out.Trials, err
}

// Best returns the best COMPLETE trial of study; an *Error with status 404
// when the study is unknown or has no COMPLETE trial yet. A study of
// several objectives has a front instead (Front), and Best an error.
func (c *Client) Best(ctx context.Context, study string) (Trial, error) {
	front, many, err := c.best(ctx, study)
	switch {
	case err != nil:
		return Trial{}, err
	case many:
		return Trial{}, fmt.Errorf("study %s has several objectives and no one best trial: Front returns its Pareto front", study)
	}
	return front[0], nil
}

// best reads GET .../best: the best trial, or a multi-objective study's
// front (many).
func (c *Client) best(ctx context.Context, study string) (front []Trial, many bool, err error) {
	var raw json.RawMessage
	if err := c.do(ctx, "GET", studyPath(study)+"/best", nil, &raw); err != nil {
		return nil, false, err
	}
	var f struct {
		Trials []Trial `json:"trials"`
	}
	if json.Unmarshal(raw, &f) == nil && f.Trials != nil {
		return f.Trials, true, nil
	}
	var t Trial
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, false, fmt.Errorf("best of study %s: %w", study, err)
	}
	return []Trial{t}, false, nil
}

// Front returns the Pareto-optimal trials of a multi-objective study, in
// trial order (GET .../best answers them for such a study); an *Error
// with status 404 when the study is unknown or has no COMPLETE trial yet.
// For a study of one objective it is the best trial alone.
func (c *Client) Front(ctx context.Context, study string) ([]Trial, error) {
	front, _, err := c.best(ctx, study)
	return front, err
}
