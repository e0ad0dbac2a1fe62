package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/boaopt/boa/api"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

type askRequest struct {
	N         *int   `json:"n"`
	Worker    string `json:"worker"`     // who runs the trials, as `boa trials` shows it
	RequestID string `json:"request_id"` // the same for every attempt of one ask (replayAsk)
}

// maxRequestID bounds a request_id; 128 random bits in hex take 32 bytes.
const maxRequestID = 128

// ask hands out up to n RUNNING trials of the study, as one batch
// (study.AskBatch). The list is empty once the budget is used up; it may be
// shorter than n for the same reason, or when the storage fails after some
// trials were handed out (they are in the answer, and the failure is
// logged).
func (s *server) ask(w http.ResponseWriter, r *http.Request) error {
	var req askRequest
	if err := s.decode(w, r, &req, true); err != nil {
		return err
	}
	n := 1
	if req.N != nil {
		n = *req.N
	}
	if n < 1 || n > MaxAsk {
		return badRequest("n: want between 1 and %d trials, got %d", MaxAsk, n)
	}
	if err := text("worker", req.Worker, 256); err != nil {
		return err
	}
	if err := text("request_id", req.RequestID, maxRequestID); err != nil {
		return err
	}
	worker := req.Worker
	if worker == "" {
		worker = "http:" + r.RemoteAddr
	}
	e, err := s.studies.byName(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	if err := e.lock(r.Context()); err != nil {
		return err
	}
	defer e.unlock()
	if req.RequestID != "" {
		trials, err := s.replayAsk(r.Context(), e, req)
		if err != nil {
			return err
		}
		if trials != nil {
			writeJSON(w, http.StatusOK, askResponse{Trials: trials, LeaseSeconds: s.opts.Lease.Seconds()})
			return nil
		}
	}
	e.st.SetWorker(worker)

	resp := askResponse{Trials: []askedJSON{}, LeaseSeconds: s.opts.Lease.Seconds()}
	// One batch: a BatchSampler (CoCaBO) chooses the n points jointly.
	ts, err := e.st.AskBatch(r.Context(), n)
	switch {
	case errors.Is(err, study.ErrBudget):
	case err != nil && len(ts) == 0:
		return err
	case err != nil:
		s.log.Error("ask stopped early", "study", e.st.Name(), "asked", n, "got", len(ts), "error", err)
	}
	for _, t := range ts {
		pj, err := e.st.Space().MarshalParams(t.Params)
		if err != nil {
			return err
		}
		resp.Trials = append(resp.Trials, askedJSON{ID: t.ID, Number: t.Number, Params: pj, RetryOf: api.RetryOf(t.RetryOf), Batch: api.Batch(t.Batch)})
	}
	if req.RequestID != "" && len(resp.Trials) > 0 {
		// The trials are RUNNING already: if this fails, the ask is
		// answered all the same, and a repeat gets new trials, as
		// without a request_id.
		data, err := json.Marshal(keptAnswer{RequestID: req.RequestID, Trials: resp.Trials})
		if err == nil {
			err = s.store.PutState(r.Context(), e.st.ID(), askKey(req), data)
		}
		if err != nil {
			s.log.Error("ask: could not record the request_id; a repeat of this ask gets new trials", "study", e.st.Name(), "error", err)
		}
	}
	if len(resp.Trials) == 0 {
		trials, err := s.store.TrialsWithoutReports(r.Context(), e.st.ID())
		if err != nil {
			return err
		}
		for _, t := range trials {
			if !t.State.Finished() {
				resp.Pending++
			}
		}
	}
	writeJSON(w, http.StatusOK, resp)
	return nil
}

// askKey is the storage state key under which an ask with a request_id
// keeps its answer: one per named worker, whose next ask replaces it, so
// the kept answers are as many as the workers, not as the asks (a worker
// asks again only once it has its answer). An unnamed worker's asks are
// kept one per request_id, for ever.
func askKey(req askRequest) string {
	if req.Worker != "" {
		return "ask/worker/" + req.Worker
	}
	return "ask/" + req.RequestID
}

// keptAnswer is the answer of an ask, kept for its repeats.
type keptAnswer struct {
	RequestID string      `json:"request_id"`
	Trials    []askedJSON `json:"trials"`
}

// replayAsk returns the trials an earlier ask with the same request_id
// handed out, if they are all still RUNNING, and renews their leases; nil
// when there was none (only answers with trials are kept, and only a named
// worker's latest) or they are not. A worker whose answer was lost on the
// way (a dropped connection, a proxy's timeout, a server killed
// after the ask) sends the same request again: without this it would get
// new trials while the first ones ran nowhere, until their lease lapsed
// and they were failed as stale and re-queued, and a configuration lost
// that way twice would be dropped (docs/crash-recovery.md).
//
// The answer is kept in the study's state in the storage, so a repeat
// that reaches another replica finds it too, once the first ask has
// answered. A repeat that arrives while the first is still suggesting
// waits for it on the same replica (asks of a study are serialised by
// e.lock), but not on another one, whose ask then proceeds as a new one.
// Once a trial of the answer has finished or been reaped, the repeat is a
// new ask.
func (s *server) replayAsk(ctx context.Context, e *entry, req askRequest) ([]askedJSON, error) {
	data, err := s.store.GetState(ctx, e.st.ID(), askKey(req))
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var kept keptAnswer
	if err := json.Unmarshal(data, &kept); err != nil {
		return nil, fmt.Errorf("ask: the stored answer of request %q: %w", req.RequestID, err)
	}
	if kept.RequestID != req.RequestID {
		return nil, nil // the worker's answer to another ask
	}
	for _, t := range kept.Trials {
		err := s.store.Heartbeat(ctx, t.ID)
		if errors.Is(err, storage.ErrFinished) || errors.Is(err, storage.ErrNotRunning) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return kept.Trials, nil
}

type tellRequest struct {
	State   string                     `json:"state"` // COMPLETE (default), PRUNED or FAILED
	Value   json.RawMessage            `json:"value"`
	Values  json.RawMessage            `json:"values"` // a multi-objective study's: a list in its objectives' order, or an object from their names
	Reason  string                     `json:"reason"`
	Metrics map[string]json.RawMessage `json:"metrics"`
	Requeue bool                       `json:"requeue"` // FAILED only: add a WAITING re-run of the configuration
}

// maxReason bounds a stored failure reason; longer ones are cut.
const maxReason = 4096

// outcome is a validated tell.
type outcome struct {
	state   storage.State
	value   *float64
	values  []float64 // a COMPLETE trial's values, in the order sent (names: by name, until ordered)
	names   []string  // the names the values were sent with, nil for a list
	reason  string
	metrics map[string]float64
	requeue bool
}

func parseTell(req tellRequest) (outcome, error) {
	var o outcome
	o.state = storage.Complete
	if req.State != "" {
		st, err := storage.ParseState(req.State)
		if err != nil || !st.Finished() {
			return o, badRequest("state: %q is not a result; want COMPLETE (the default), PRUNED or FAILED", req.State)
		}
		o.state = st
	}
	hasValue := len(req.Value) > 0 && string(req.Value) != "null"
	hasValues := len(req.Values) > 0 && string(req.Values) != "null"
	switch {
	case hasValues && o.state != storage.Complete:
		return o, badRequest("values: only a COMPLETE trial has a value per objective (a PRUNED one has its last intermediate value in \"value\")")
	case hasValues && hasValue:
		return o, badRequest("value and values: send one (\"values\" in a study of several objectives)")
	case hasValues:
		var err error
		if o.values, o.names, err = parseValues(req.Values); err != nil {
			return o, err
		}
		o.value = &o.values[0]
		if req.Reason != "" {
			return o, badRequest("reason: only a FAILED trial has a reason")
		}
	}
	switch o.state {
	case storage.Complete, storage.Pruned:
		if hasValues {
			break
		}
		v, err := number("value", req.Value)
		if err != nil {
			return o, err
		}
		o.value = &v
		if req.Reason != "" {
			return o, badRequest("reason: only a FAILED trial has a reason")
		}
	case storage.Failed:
		if hasValue {
			return o, badRequest("value: a FAILED trial has no value (leave it out, and say why in \"reason\")")
		}
		o.reason = cleanReason(req.Reason)
	}
	if req.Requeue && o.state != storage.Failed {
		return o, badRequest("requeue: only a FAILED trial can be re-queued")
	}
	o.requeue = req.Requeue
	if len(req.Metrics) > 0 {
		o.metrics = make(map[string]float64, len(req.Metrics))
		for k, raw := range req.Metrics {
			if k == "" {
				return o, badRequest("metrics: a metric needs a name")
			}
			if err := text("metric name", k, 256); err != nil { // runner.MaxMetricName
				return o, err
			}
			v, err := metric(fmt.Sprintf("metrics.%s", k), raw)
			if err != nil {
				return o, err
			}
			o.metrics[k] = v
		}
	}
	return o, nil
}

// parseValues reads a tell's values: a list of numbers, or an object
// from objective names to numbers, in the order written (encoding/json's
// maps lose it, and the study orders them by name anyway).
func parseValues(raw json.RawMessage) ([]float64, []string, error) {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		if len(list) == 0 {
			return nil, nil, badRequest("values: empty; want one number per objective")
		}
		out := make([]float64, len(list))
		for i, r := range list {
			v, err := number(fmt.Sprintf("values[%d]", i), r)
			if err != nil {
				return nil, nil, err
			}
			out[i] = v
		}
		return out, nil, nil
	}
	var named map[string]json.RawMessage
	if err := json.Unmarshal(raw, &named); err != nil || len(named) == 0 {
		return nil, nil, badRequest("values: want a list of numbers, one per objective, or an object from objective names to numbers")
	}
	names := slices.Sorted(maps.Keys(named))
	out := make([]float64, len(names))
	for i, n := range names {
		v, err := number("values."+n, named[n])
		if err != nil {
			return nil, nil, err
		}
		out[i] = v
	}
	return out, names, nil
}

// order puts o's values in the order of the objectives, named names, of
// the trial's study: a request whose values do not fit them is refused,
// saying what the study wants.
func (o *outcome) order(study string, names []string) error {
	want := fmt.Sprintf("study %q has %d objective(s) (%s)", study, len(names), strings.Join(names, ", "))
	switch {
	case o.state != storage.Complete:
		return nil
	case o.values == nil && len(names) > 1:
		return badRequest("value: %s: send \"values\", a list in that order or an object from the names", want)
	case o.values == nil:
		return nil
	case o.names == nil && len(o.values) != len(names):
		return badRequest("values: %d given, but %s", len(o.values), want)
	case o.names != nil:
		ordered := make([]float64, len(names))
		for i, n := range names {
			j := slices.Index(o.names, n)
			if j < 0 {
				return badRequest("values: objective %s is missing: %s", n, want)
			}
			ordered[i] = o.values[j]
		}
		if len(o.names) > len(names) {
			return badRequest("values: %s given, but %s", strings.Join(o.names, ", "), want)
		}
		o.values, o.names = ordered, nil
	}
	o.value = &o.values[0]
	if len(names) == 1 {
		o.values = nil // a single-objective study keeps the value alone
	}
	return nil
}

// cleanReason makes a reason storable: NUL characters (the SQL back-ends
// refuse them; a crashing program's stderr may hold some) become U+FFFD,
// and a reason longer than maxReason is cut on a character boundary.
func cleanReason(s string) string {
	if s == "" {
		return "reported FAILED by the worker (no reason given)"
	}
	s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	if len(s) > maxReason {
		cut := maxReason
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// same reports whether a finished trial already holds outcome o: then a
// repeated tell (a retry whose first answer was lost) succeeds again.
// A trial keeps only its finite metrics, and a COMPLETE one the reason
// it is infeasible, which the worker did not send.
func (o outcome) same(t storage.Trial) bool {
	kept := maps.Clone(o.metrics)
	maps.DeleteFunc(kept, func(_ string, v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) })
	if t.State != o.state || !maps.Equal(t.Metrics, kept) {
		return false
	}
	if o.state == storage.Failed {
		return t.Reason == o.reason
	}
	return t.Value != nil && o.value != nil && *t.Value == *o.value && slices.Equal(t.Values, o.values)
}

func (s *server) tell(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var req tellRequest
	if err := s.decode(w, r, &req, false); err != nil {
		return err
	}
	o, err := parseTell(req)
	if err != nil {
		return err
	}
	rec, err := s.trial(r.Context(), id)
	if err != nil {
		return err
	}
	e, err := s.studies.byID(r.Context(), rec.StudyID)
	if err != nil {
		return err
	}
	if err := o.order(e.st.Name(), e.st.ObjectiveNames()); err != nil {
		return err
	}
	if err := s.finished(rec, o); err != nil {
		if errors.Is(err, errSame) {
			writeJSON(w, http.StatusOK, tellAnswer(rec))
			return nil
		}
		return err
	}
	res := study.Result{Pruned: o.state == storage.Pruned, Metrics: o.metrics, Values: o.values}
	switch {
	case o.state == storage.Failed:
		res.Err, res.Requeue = errors.New(o.reason), o.requeue
	default:
		res.Value = *o.value
		if err := e.st.Transform().Check(res.Value); err != nil && !res.Pruned {
			return badRequest("value: %v cannot be recorded in study %q: %v", res.Value, e.st.Name(), err)
		}
	}
	err = e.st.Tell(r.Context(), id, res)
	if errors.Is(err, storage.ErrFinished) {
		// Finished meanwhile (a concurrent retry, or a reaper): judge again.
		if rec, err = s.trial(r.Context(), id); err != nil {
			return err
		}
		if err := s.finished(rec, o); err != nil && !errors.Is(err, errSame) {
			return err
		}
		writeJSON(w, http.StatusOK, tellAnswer(rec))
		return nil
	}
	if err != nil {
		return err
	}
	// Read back: the study has judged the trial against its constraints.
	if rec, err = s.trial(r.Context(), id); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, tellAnswer(rec))
	return nil
}

var errSame = errors.New("the trial already has this result")

// finished returns nil for a running trial, errSame for a trial that
// already holds o, and a 409 otherwise.
func (s *server) finished(t storage.Trial, o outcome) error {
	switch {
	case t.State == storage.Running:
		return nil
	case t.State == storage.Waiting:
		return errorf(http.StatusConflict, "trial %d (number %d) is WAITING: it has not been handed out by an ask yet", t.ID, t.Number)
	case o.same(t):
		return errSame
	}
	return errorf(http.StatusConflict, "trial %d (number %d) already finished as %s; a result is final", t.ID, t.Number, describe(t))
}

// describe says what a finished trial holds, metrics included, so that a
// refused re-tell that differs only in its metrics shows where.
func describe(t storage.Trial) string {
	var b strings.Builder
	switch {
	case t.State == storage.Failed:
		fmt.Fprintf(&b, "FAILED (%s)", t.Reason)
	case t.Value != nil:
		fmt.Fprintf(&b, "%s with value %v", t.State, *t.Value)
	default:
		b.WriteString(t.State.String())
	}
	for i, k := range slices.Sorted(maps.Keys(t.Metrics)) {
		sep := ", "
		if i == 0 {
			sep = " and metrics "
		}
		fmt.Fprintf(&b, "%s%s=%v", sep, k, t.Metrics[k])
	}
	return b.String()
}

func tellAnswer(t storage.Trial) tellResponse {
	return tellResponse{ID: t.ID, Number: t.Number, State: t.State.String(), Value: t.Value, Values: t.Values, Reason: t.Reason, Feasible: t.Feasible}
}

// trial reads trial id, a 404 naming it when there is none.
func (s *server) trial(ctx context.Context, id int64) (storage.Trial, error) {
	t, err := s.store.GetTrial(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return t, errorf(http.StatusNotFound, "trial %d not found", id)
	}
	return t, err
}

type reportRequest struct {
	Step  *int64          `json:"step"`
	Value json.RawMessage `json:"value"`
}

func (s *server) report(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var req reportRequest
	if err := s.decode(w, r, &req, false); err != nil {
		return err
	}
	if req.Step == nil {
		return badRequest("step: missing; want an integer (the epoch or iteration)")
	}
	if *req.Step < 0 {
		return badRequest("step: %d is negative; want the epoch or iteration, from 0", *req.Step)
	}
	v, err := number("value", req.Value)
	if err != nil {
		return err
	}
	err = s.store.Report(r.Context(), id, *req.Step, v)
	if errors.Is(err, storage.ErrNotFound) {
		return errorf(http.StatusNotFound, "trial %d not found", id)
	}
	if err != nil {
		return err
	}
	prune, err := s.shouldPrune(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]bool{"prune": prune})
	return nil
}

// shouldPrune is the pruner's advice for trial id of the study it belongs
// to (study.ShouldPrune); false for a study without a pruner, which costs
// no more than reading the trial.
func (s *server) shouldPrune(ctx context.Context, id int64) (bool, error) {
	t, err := s.trial(ctx, id)
	if err != nil {
		return false, err
	}
	e, err := s.studies.byID(ctx, t.StudyID)
	if err != nil || e.st.Pruner() == nil {
		return false, err
	}
	prune, err := e.st.ShouldPrune(ctx, id)
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrFinished) {
		return false, nil // finished or gone since the report: nothing to stop
	}
	return prune, err
}

func (s *server) heartbeat(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	if _, err := s.readBody(w, r); err != nil { // any body is ignored, within the limit
		return err
	}
	err = s.store.Heartbeat(r.Context(), id)
	switch {
	case err == nil:
		w.WriteHeader(http.StatusNoContent)
		return nil
	case errors.Is(err, storage.ErrNotFound):
		return errorf(http.StatusNotFound, "trial %d not found", id)
	}
	return err
}
