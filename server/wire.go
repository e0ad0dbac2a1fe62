package server

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/boaopt/boa/api"
	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// The JSON the API answers (docs/http-api.md); the forms the client
// reads as well are in package api.

// studyJSON summarises a study.
type studyJSON struct {
	Name      string `json:"name"`
	Direction string `json:"direction"`
	Sampler   string `json:"sampler"`
	Choice    string `json:"auto_choice,omitempty"` // the sampler auto uses for the space (sampler "auto" only)
	// SamplerOptions are the sampler's settings when the study file gave
	// them in the mapping form (sampler: {type: gpbo, acquisition: fitbo}).
	SamplerOptions sampler.Options `json:"sampler_options,omitempty"`
	Transform      string          `json:"transform,omitempty"` // what the model is fitted to, when not the values as they are
	Pruner         *pruner.Spec    `json:"pruner,omitempty"`    // which running trials stop early, when the study has a pruner
	Seed           uint64          `json:"seed"`
	Budget         int             `json:"budget"` // trials wanted; 0 = no limit
	Space          json.RawMessage `json:"space"`
	Created        *time.Time      `json:"created"`
	Trials         int             `json:"trials"` // stored trials, re-runs included
	Used           int             `json:"used"`   // trials counted against the budget (re-runs take their original's place)
	States         map[string]int  `json:"states"` // trials per state
	// Constraints are the study's limits on its trials' metrics, when it
	// has any; Feasible and Infeasible then count its COMPLETE trials by
	// verdict, and the best trial is the best feasible one.
	Constraints constraint.Set `json:"constraints,omitempty"`
	Feasible    *int           `json:"feasible,omitempty"`
	Infeasible  *int           `json:"infeasible,omitempty"`
	BestValue   *float64       `json:"best_value"`
	BestTrial   *int           `json:"best_trial"` // number of the best trial (of a multi-objective study: the front's best in the first objective)
	// Objectives name a multi-objective study's objectives and their
	// senses, the order of each trial's values; Front are the numbers of
	// its Pareto-optimal trials.
	Objectives []objectiveJSON `json:"objectives,omitempty"`
	Front      []int           `json:"front,omitempty"`
	// Fidelity is what the trials' reports count, when the study declares
	// one: a worker passes its max to the command.
	Fidelity *study.Fidelity `json:"fidelity,omitempty"`
	// LastActivity is the latest time a trial was created, started,
	// finished or beat its heart (the dashboard's studies list).
	LastActivity *time.Time `json:"last_activity,omitempty"`
}

type objectiveJSON struct {
	Name      string `json:"name"`
	Direction string `json:"direction"`
}

// trialJSON is a trial as GET .../trials and .../best answer it: the
// stored parameters as they are.
type trialJSON = api.Trial[json.RawMessage]

// askedJSON is a trial handed out by ask.
type askedJSON struct {
	ID      int64           `json:"id"`
	Number  int             `json:"number"`
	Params  json.RawMessage `json:"params"`
	RetryOf *int            `json:"retry_of,omitempty"`
	Batch   *int            `json:"batch,omitempty"`
}

type askResponse struct {
	Trials []askedJSON `json:"trials"`
	// Pending counts the study's WAITING and RUNNING trials when the
	// list is empty: a worker may wait for them, since one whose runner
	// died is re-queued once its lease lapses.
	Pending int `json:"pending"`
	// LeaseSeconds is the heartbeat lease: a worker must beat more often.
	LeaseSeconds float64 `json:"lease_seconds"`
}

type tellResponse struct {
	ID     int64     `json:"id"`
	Number int       `json:"number"`
	State  string    `json:"state"`
	Value  *float64  `json:"value"`
	Values []float64 `json:"values,omitempty"` // every objective's value, in a multi-objective study
	Reason string    `json:"reason,omitempty"` // why it FAILED, or why it is infeasible
	// Feasible is the verdict of the study's constraints on a COMPLETE
	// trial; absent when not judged.
	Feasible *bool `json:"feasible,omitempty"`
}

func params(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// spaceOf is the space of a stored study, nil when it does not read.
func spaceOf(st storage.Study) *space.Space {
	var sp space.Space
	if err := json.Unmarshal(st.Space, &sp); err != nil {
		return nil
	}
	return &sp
}

// wireParams is a trial's stored params as the API answers them: written
// by the space (Space.MarshalParams), so that a Float that an older boa
// stored at 1 reads 1.0, as the ones stored now do. Params that do not
// read, or a nil space, give the stored JSON as it is: the API shows what
// there is.
func wireParams(sp *space.Space, raw json.RawMessage) json.RawMessage {
	raw = params(raw)
	if sp == nil {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // integers beyond 2⁵³ keep their digits
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return raw
	}
	out, err := sp.MarshalParams(m)
	if err != nil {
		return raw
	}
	return out
}

// toTrialJSON is t as the API answers it; sp is its study's space (nil
// when unknown, then the params are as stored).
func toTrialJSON(sp *space.Space, t storage.Trial) trialJSON {
	out := trialJSON{
		ID: t.ID, Number: t.Number, State: t.State.String(), Params: wireParams(sp, t.Params), Value: t.Value, Values: t.Values,
		Metrics: t.Metrics, Reports: make([]api.Report, len(t.Reports)), Reason: t.Reason, Feasible: t.Feasible, Worker: t.Worker,
		Started: api.Time(t.Started), Finished: api.Time(t.Finished), RetryOf: api.RetryOf(t.RetryOf), Batch: api.Batch(t.Batch),
		Origin: t.Origin,
	}
	for i, r := range t.Reports {
		out.Reports[i] = api.Report(r)
	}
	if out.Metrics == nil {
		out.Metrics = map[string]float64{}
	}
	return out
}

// summarise builds a study's summary from its stored trials.
func summarise(st storage.Study, trials []storage.Trial) studyJSON {
	out := studyJSON{
		Name: st.Name, Direction: st.Direction, Sampler: st.Sampler, Seed: st.Seed, Budget: st.Budget,
		Space: params(st.Space), Created: api.Time(st.Created), Trials: len(trials), States: map[string]int{},
	}
	if strings.EqualFold(st.Sampler, "auto") {
		var sp space.Space
		if err := json.Unmarshal(st.Space, &sp); err == nil {
			cons, _ := study.ConstraintsOf(st)
			out.Choice = auto.New().ChoiceFor(&sampler.History{Space: &sp, Budget: st.Budget, Constraints: cons.Names(), Objectives: len(objectives(st))})
		}
	}
	if o, err := study.SamplerOptionsOf(st); err == nil && len(o) > 0 {
		out.SamplerOptions = o
	}
	if tf, err := study.TransformOf(st); err == nil && tf != transform.None {
		out.Transform = tf.String()
	}
	if p, err := study.PrunerOf(st); err == nil && p.Type != "" {
		out.Pruner = &p
	}
	if c, err := study.ConstraintsOf(st); err == nil && len(c) > 0 {
		out.Constraints = c
	}
	if f, err := study.FidelityOf(st); err == nil {
		out.Fidelity = f
	}
	sum := study.Summarize(objectives(st), trials)
	if out.Constraints != nil {
		out.Feasible, out.Infeasible = &sum.Feasible, &sum.Infeasible
	}
	out.Used = sum.Used
	for state, n := range sum.States {
		out.States[state.String()] = n
	}
	if b := sum.Best; b >= 0 {
		out.BestValue, out.BestTrial = trials[b].Value, &trials[b].Number
	}
	if objs := objectives(st); len(objs) > 1 {
		for _, o := range objs {
			out.Objectives = append(out.Objectives, objectiveJSON{o.Name, o.Direction.String()})
		}
		out.Front = []int{}
		for _, i := range sum.Front {
			out.Front = append(out.Front, trials[i].Number)
		}
	}
	var last time.Time
	for _, t := range trials {
		for _, at := range []time.Time{t.Created, t.Started, t.Finished, t.Heartbeat} {
			if at.After(last) {
				last = at
			}
		}
	}
	out.LastActivity = api.Time(last)
	return out
}

// objectives are st's objectives; one, in its direction, when its stored
// settings cannot be read (the study's other routes report that).
func objectives(st storage.Study) []study.Goal {
	objs, err := study.ObjectivesOf(st)
	if err != nil {
		return []study.Goal{{Name: study.DefaultObjective, Direction: direction(st)}}
	}
	return objs
}

// direction is the stored study's direction; a study.Create stored it,
// so it always parses.
func direction(st storage.Study) study.Direction {
	dir, _ := study.ParseDirection(st.Direction)
	return dir
}
