package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

func testAddTrial(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	other := NewStudy(t, s, "other")
	ids := map[int64]bool{}
	for i := range 5 {
		tr := add(t, s, st.ID, storage.Waiting, i)
		if tr.Number != i || tr.StudyID != st.ID || tr.State != storage.Waiting || tr.RetryOf != -1 {
			t.Errorf("trial %d = %+v", i, tr)
		}
		recent(t, "Created", tr.Created)
		if !tr.Started.IsZero() || !tr.Heartbeat.IsZero() || !tr.Finished.IsZero() {
			t.Errorf("WAITING trial has times set: %+v", tr)
		}
		if ids[tr.ID] {
			t.Errorf("duplicate trial ID %d", tr.ID)
		}
		ids[tr.ID] = true
	}
	// Numbering is per study.
	if tr := add(t, s, other.ID, storage.Waiting, 0); tr.Number != 0 {
		t.Errorf("first trial of a second study has number %d", tr.Number)
	}
	run, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, Worker: "w1", RetryOf: -1})
	if err != nil {
		t.Fatal(err)
	}
	if run.Number != 5 || run.Worker != "w1" || run.State != storage.Running {
		t.Errorf("running trial = %+v", run)
	}
	recent(t, "Started", run.Started)
	if !run.Started.Equal(run.Heartbeat) {
		t.Errorf("Started %v != Heartbeat %v", run.Started, run.Heartbeat)
	}
	got, err := s.GetTrial(ctx(t), run.ID)
	if err != nil || !reflect.DeepEqual(got, run) {
		t.Errorf("GetTrial = %+v, %v\nwant %+v", got, err, run)
	}
	_, err = s.AddTrial(ctx(t), storage.Trial{StudyID: 999999, RetryOf: -1})
	wantErr(t, "AddTrial to unknown study", err, storage.ErrNotFound)
}

func testAddTrialValidation(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	for name, tr := range map[string]storage.Trial{
		"complete state": {StudyID: st.ID, State: storage.Complete, RetryOf: -1},
		"bad state":      {StudyID: st.ID, State: storage.State(42), RetryOf: -1},
		"bad params":     {StudyID: st.ID, Params: json.RawMessage(`{"a":`), RetryOf: -1},
		"NaN in X":       {StudyID: st.ID, X: []float64{0.5, math.NaN()}, RetryOf: -1},
		"RetryOf -2":     {StudyID: st.ID, RetryOf: -2},
		"Batch -1":       {StudyID: st.ID, RetryOf: -1, Batch: -1},
		// The zero value RetryOf = 0 names trial 0, which does not exist yet.
		"zero RetryOf": {StudyID: st.ID},
	} {
		_, err := s.AddTrial(ctx(t), tr)
		wantInvalid(t, "AddTrial "+name, err)
	}
	first := add(t, s, st.ID, storage.Running, 0)
	if first.Number != 0 {
		t.Errorf("rejected trials used up numbers: first accepted trial has number %d", first.Number)
	}
	_, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, RetryOf: 0})
	wantInvalid(t, "AddTrial retrying a RUNNING trial", err)
	if err := s.FinishTrial(ctx(t), first.ID, storage.Finish{State: storage.Failed, Reason: "boom"}); err != nil {
		t.Fatal(err)
	}
	retry, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, RetryOf: 0, Params: first.Params})
	if err != nil || retry.RetryOf != 0 || retry.Number != 1 {
		t.Fatalf("AddTrial retrying a FAILED trial = %+v, %v", retry, err)
	}
	_, err = s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, RetryOf: 0})
	wantErr(t, "AddTrial retrying an already re-queued trial", err, storage.ErrExists)
	if next := add(t, s, st.ID, storage.Waiting, 2); next.Number != 2 {
		t.Errorf("next number after rejected retries = %d, want 2", next.Number)
	}
}

func testTrialRoundTrip(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	x := []float64{math.Pi, 1.0 / 3, 0.1 + 0.2, 5e-324, math.MaxFloat64, -0.0, 1e-300, 0.123456789012345678, 1 - 1e-16}
	in := storage.Trial{
		StudyID: st.ID, State: storage.Running, RetryOf: -1, Batch: 7, Origin: "design", Worker: "hôte-1/ワーカー", LogPath: "/tmp/日志/trial.log",
		Params: json.RawMessage(`{"lr":0.0001234567890123456789,"kernel":"rbf","名前":"値 ✓","nested":{"a":[1,2,3]}}`),
		X:      x,
	}
	tr, err := s.AddTrial(ctx(t), in)
	if err != nil {
		t.Fatal(err)
	}
	metrics := map[string]float64{"acc": 0.9876543210987654, "flash_kb": 1e-7, "λ": -math.SmallestNonzeroFloat64}
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: ptr(0), Metrics: metrics, Reason: "ok ✓"}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTrial(ctx(t), tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Params) != string(in.Params) {
		t.Errorf("Params = %s, want %s byte for byte", got.Params, in.Params)
	}
	if len(got.X) != len(x) {
		t.Fatalf("X = %v, want %v", got.X, x)
	}
	for i := range x {
		if math.Float64bits(got.X[i]) != math.Float64bits(x[i]) {
			t.Errorf("X[%d] = %v (%#x), want %v (%#x)", i, got.X[i], math.Float64bits(got.X[i]), x[i], math.Float64bits(x[i]))
		}
	}
	if got.Value == nil || *got.Value != 0 {
		t.Errorf("Value = %v, want a pointer to 0 (not nil)", got.Value)
	}
	if !reflect.DeepEqual(got.Metrics, metrics) || got.Reason != "ok ✓" || got.Worker != in.Worker || got.LogPath != in.LogPath || got.Batch != in.Batch || got.Origin != in.Origin {
		t.Errorf("round trip = %+v", got)
	}
	recent(t, "Finished", got.Finished)

	// nil stays nil: no params, no X, no value, no metrics.
	bare, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTrial(ctx(t), bare.ID, storage.Finish{State: storage.Pruned}); err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTrial(ctx(t), bare.ID)
	if got.Params != nil || got.X != nil || got.Value != nil || got.Metrics != nil || got.Reports != nil {
		t.Errorf("bare trial round trip = %+v, want nil fields", got)
	}
	// An empty X is not nil.
	empty, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, RetryOf: -1, X: []float64{}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetTrial(ctx(t), empty.ID)
	if got.X == nil || len(got.X) != 0 {
		t.Errorf("empty X read back as %#v", got.X)
	}
	// Extreme values of a PRUNED trial with a value.
	p := add(t, s, st.ID, storage.Running, 9)
	v := -math.MaxFloat64
	if err := s.FinishTrial(ctx(t), p.ID, storage.Finish{State: storage.Pruned, Value: &v}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTrial(ctx(t), p.ID); got.Value == nil || *got.Value != v || got.State != storage.Pruned {
		t.Errorf("pruned trial = %+v", got)
	}
}

func testDeepCopies(t *testing.T, s storage.Storage) {
	attrs := map[string]string{"k": "v"}
	space := json.RawMessage(`{"a":1}`)
	st, err := s.CreateStudy(ctx(t), storage.Study{Name: "s", Direction: "minimize", Space: space, Attrs: attrs})
	if err != nil {
		t.Fatal(err)
	}
	attrs["k"], space[2] = "changed", 'b'
	st.Attrs["k"], st.Space[2] = "changed", 'c'
	if got, _ := s.GetStudy(ctx(t), "s"); got.Attrs["k"] != "v" || string(got.Space) != `{"a":1}` {
		t.Errorf("stored study aliased a caller's value: %+v", got)
	}

	params := json.RawMessage(`{"i":1}`)
	x := []float64{0.25}
	tr, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Params: params, X: x})
	if err != nil {
		t.Fatal(err)
	}
	params[5], x[0] = '2', 0.75
	tr.Params[5], tr.X[0] = '3', 0.5
	metrics := map[string]float64{"m": 1}
	value := 2.0
	if err := s.Report(ctx(t), tr.ID, 1, 0.5); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: &value, Metrics: metrics}); err != nil {
		t.Fatal(err)
	}
	metrics["m"], value = 9, 9
	got1, _ := s.GetTrial(ctx(t), tr.ID)
	got1.Metrics["m"], *got1.Value, got1.Reports[0].Value, got1.X[0] = 8, 8, 8, 8
	all, _ := s.Trials(ctx(t), st.ID)
	all[0].Metrics["m"] = 7
	got, _ := s.GetTrial(ctx(t), tr.ID)
	if string(got.Params) != `{"i":1}` || got.X[0] != 0.25 || got.Metrics["m"] != 1 || *got.Value != 2 || got.Reports[0].Value != 0.5 {
		t.Errorf("stored trial aliased a caller's value: %+v", got)
	}
}

func testClaimTrial(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	other := NewStudy(t, s, "other")
	if _, ok, err := s.ClaimTrial(ctx(t), st.ID, "w"); ok || err != nil {
		t.Errorf("ClaimTrial on empty study = %v, %v; want nothing", ok, err)
	}
	_, _, err := s.ClaimTrial(ctx(t), 999999, "w")
	wantErr(t, "ClaimTrial unknown study", err, storage.ErrNotFound)
	add(t, s, other.ID, storage.Waiting, 0)
	add(t, s, st.ID, storage.Running, 0)
	w1 := add(t, s, st.ID, storage.Waiting, 1)
	w2 := add(t, s, st.ID, storage.Waiting, 2)
	for _, want := range []storage.Trial{w1, w2} {
		got, ok, err := s.ClaimTrial(ctx(t), st.ID, "worker-7")
		if err != nil || !ok {
			t.Fatalf("ClaimTrial = %v, %v", ok, err)
		}
		if got.ID != want.ID || got.State != storage.Running || got.Worker != "worker-7" || string(got.Params) != string(want.Params) {
			t.Errorf("ClaimTrial = %+v, want trial %d RUNNING for worker-7", got, want.Number)
		}
		recent(t, "Started", got.Started)
		if !got.Heartbeat.Equal(got.Started) {
			t.Errorf("Heartbeat %v != Started %v", got.Heartbeat, got.Started)
		}
		if stored, _ := s.GetTrial(ctx(t), got.ID); !reflect.DeepEqual(stored, got) {
			t.Errorf("stored %+v\nclaimed %+v", stored, got)
		}
	}
	if _, ok, err := s.ClaimTrial(ctx(t), st.ID, "w"); ok || err != nil {
		t.Errorf("ClaimTrial with nothing waiting = %v, %v", ok, err)
	}
}

func testFinishTrial(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	tr := add(t, s, st.ID, storage.Running, 0)
	for name, f := range map[string]storage.Finish{
		"non-final state":   {State: storage.Running, Value: ptr(1)},
		"COMPLETE no value": {State: storage.Complete},
		"NaN value":         {State: storage.Complete, Value: ptr(math.NaN())},
		"Inf value":         {State: storage.Pruned, Value: ptr(math.Inf(1))},
		"NaN metric":        {State: storage.Complete, Value: ptr(1), Metrics: map[string]float64{"m": math.NaN()}},
		"NUL in reason":     {State: storage.Failed, Reason: "core\x00dumped"},
		"bad UTF-8 reason":  {State: storage.Failed, Reason: "caf\xe9"},
		"NUL in metric":     {State: storage.Complete, Value: ptr(1), Metrics: map[string]float64{"a\x00b": 1}},
	} {
		wantInvalid(t, "FinishTrial "+name, s.FinishTrial(ctx(t), tr.ID, f))
	}
	if got, _ := s.GetTrial(ctx(t), tr.ID); got.State != storage.Running {
		t.Fatalf("a rejected finish changed the trial: %+v", got)
	}
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: ptr(1.5)}); err != nil {
		t.Fatal(err)
	}
	err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Failed, Reason: "late"})
	wantErr(t, "second FinishTrial", err, storage.ErrFinished)
	if got, _ := s.GetTrial(ctx(t), tr.ID); got.State != storage.Complete || *got.Value != 1.5 || got.Reason != "" {
		t.Errorf("losing finish changed the trial: %+v", got)
	}
	wantErr(t, "FinishTrial unknown", s.FinishTrial(ctx(t), 999999, storage.Finish{State: storage.Failed}), storage.ErrNotFound)
	// A WAITING trial may be FAILED directly (cancelled before it ran), but
	// nobody ran it, so it has no value to record.
	w := add(t, s, st.ID, storage.Waiting, 1)
	for _, f := range []storage.Finish{{State: storage.Complete, Value: ptr(1)}, {State: storage.Pruned, Value: ptr(1)}} {
		wantErr(t, "FinishTrial "+f.State.String()+" of a WAITING trial", s.FinishTrial(ctx(t), w.ID, f), storage.ErrNotRunning)
	}
	if got, _ := s.GetTrial(ctx(t), w.ID); got.State != storage.Waiting || got.Value != nil {
		t.Errorf("a refused finish changed the WAITING trial: %+v", got)
	}
	if err := s.FinishTrial(ctx(t), w.ID, storage.Finish{State: storage.Failed, Reason: "cancelled"}); err != nil {
		t.Errorf("cancelling a WAITING trial: %v", err)
	}
}

// testFinishRequeue: Finish.Requeue records the trial FAILED and adds its
// WAITING re-run at once; a finish that loses adds none.
func testFinishRequeue(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	tr, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Batch: 3, Origin: "model",
		Params: json.RawMessage(`{"i":0}`), X: []float64{0.5}})
	if err != nil {
		t.Fatal(err)
	}
	wantInvalid(t, "FinishTrial COMPLETE with Requeue",
		s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: ptr(1), Requeue: true}))
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Failed, Reason: "interrupted", Requeue: true}); err != nil {
		t.Fatal(err)
	}
	err = s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Failed, Reason: "interrupted", Requeue: true})
	wantErr(t, "second FinishTrial with Requeue", err, storage.ErrFinished)
	ts, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].State != storage.Failed || ts[0].Reason != "interrupted" {
		t.Fatalf("after a finish with Requeue: %+v; want trial 0 FAILED and one re-run", ts)
	}
	r := ts[1]
	if r.State != storage.Waiting || r.RetryOf != 0 || string(r.Params) != `{"i":0}` || len(r.X) != 1 || r.X[0] != 0.5 || r.Batch != 3 || r.Origin != "model" {
		t.Errorf("re-run = %+v; want WAITING, RetryOf 0, the params, point, batch and origin of trial 0", r)
	}
}

func testHeartbeat(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	tr := add(t, s, st.ID, storage.Running, 0)
	pause()
	if err := s.Heartbeat(ctx(t), tr.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := s.GetTrial(ctx(t), tr.ID)
	if !got.Heartbeat.After(tr.Heartbeat) {
		t.Errorf("Heartbeat did not advance: %v then %v", tr.Heartbeat, got.Heartbeat)
	}
	recent(t, "Heartbeat", got.Heartbeat)
	wantErr(t, "Heartbeat of a WAITING trial", s.Heartbeat(ctx(t), add(t, s, st.ID, storage.Waiting, 1).ID), storage.ErrNotRunning)
	wantErr(t, "Heartbeat unknown", s.Heartbeat(ctx(t), 999999), storage.ErrNotFound)
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Pruned}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "Heartbeat after finish", s.Heartbeat(ctx(t), tr.ID), storage.ErrFinished)
}

func testReports(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	tr := add(t, s, st.ID, storage.Running, 0)
	other := add(t, s, st.ID, storage.Running, 1)
	for _, r := range []storage.Report{{Step: 10, Value: 0.5}, {Step: 2, Value: 0.9}, {Step: 5, Value: 0.7}, {Step: 2, Value: 0.8}, {Step: 0, Value: 1}} {
		if err := s.Report(ctx(t), tr.ID, r.Step, r.Value); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Report(ctx(t), other.ID, 1, 3); err != nil {
		t.Fatal(err)
	}
	want := []storage.Report{{Step: 0, Value: 1}, {Step: 2, Value: 0.8}, {Step: 5, Value: 0.7}, {Step: 10, Value: 0.5}}
	if got, _ := s.GetTrial(ctx(t), tr.ID); !reflect.DeepEqual(got.Reports, want) {
		t.Errorf("Reports = %v, want %v (ordered by step, upserted)", got.Reports, want)
	}
	all, _ := s.Trials(ctx(t), st.ID)
	if len(all) != 2 || !reflect.DeepEqual(all[0].Reports, want) || !reflect.DeepEqual(all[1].Reports, []storage.Report{{Step: 1, Value: 3}}) {
		t.Errorf("Trials reports = %+v", all)
	}
	wantInvalid(t, "Report NaN", s.Report(ctx(t), tr.ID, 11, math.NaN()))
	wantInvalid(t, "Report at a negative step", s.Report(ctx(t), tr.ID, -1, 1))
	wantErr(t, "Report unknown", s.Report(ctx(t), 999999, 1, 1), storage.ErrNotFound)
	waiting := add(t, s, st.ID, storage.Waiting, 2)
	wantErr(t, "Report on a WAITING trial", s.Report(ctx(t), waiting.ID, 1, 1), storage.ErrNotRunning)
	if got, _ := s.GetTrial(ctx(t), waiting.ID); len(got.Reports) != 0 {
		t.Errorf("a report on a WAITING trial was stored: %v", got.Reports)
	}
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Pruned, Value: ptr(0.5)}); err != nil {
		t.Fatal(err)
	}
	wantErr(t, "Report after finish", s.Report(ctx(t), tr.ID, 20, 0.1), storage.ErrFinished)
	if got, _ := s.GetTrial(ctx(t), tr.ID); len(got.Reports) != 4 {
		t.Errorf("a rejected report was stored: %v", got.Reports)
	}
}

func testSetLogPath(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	tr := add(t, s, st.ID, storage.Running, 0)
	if err := s.SetLogPath(ctx(t), tr.ID, "/var/log/boa/0.log"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTrial(ctx(t), tr.ID); got.LogPath != "/var/log/boa/0.log" {
		t.Errorf("LogPath = %q", got.LogPath)
	}
	wantErr(t, "SetLogPath unknown", s.SetLogPath(ctx(t), 999999, "x"), storage.ErrNotFound)
}

func testTrials(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	if ts, err := s.Trials(ctx(t), st.ID); err != nil || ts == nil || len(ts) != 0 {
		t.Errorf("Trials of an empty study = %#v, %v; want an empty, non-nil list", ts, err)
	}
	_, err := s.Trials(ctx(t), 999999)
	wantErr(t, "Trials unknown study", err, storage.ErrNotFound)
	_, err = s.GetTrial(ctx(t), 999999)
	wantErr(t, "GetTrial unknown", err, storage.ErrNotFound)
	other := NewStudy(t, s, "other")
	var want []storage.Trial
	for i := range 10 {
		add(t, s, other.ID, storage.Waiting, i)
		want = append(want, add(t, s, st.ID, storage.Waiting, i))
	}
	got, err := s.Trials(ctx(t), st.ID)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Trials = %+v, %v\nwant %+v", got, err, want)
	}
}

// testTrialsWithoutReports: the same trials as Trials, each without its
// reports.
func testTrialsWithoutReports(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	if ts, err := s.TrialsWithoutReports(ctx(t), st.ID); err != nil || ts == nil || len(ts) != 0 {
		t.Errorf("TrialsWithoutReports of an empty study = %#v, %v; want an empty, non-nil list", ts, err)
	}
	_, err := s.TrialsWithoutReports(ctx(t), 999999)
	wantErr(t, "TrialsWithoutReports unknown study", err, storage.ErrNotFound)
	for i := range 4 {
		tr := add(t, s, st.ID, storage.Running, i)
		for step := range int64(i) {
			if err := s.Report(ctx(t), tr.ID, step, float64(step)); err != nil {
				t.Fatal(err)
			}
		}
	}
	full, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(full[3].Reports) != 3 {
		t.Fatalf("Trials: %d reports on trial 3, want 3", len(full[3].Reports))
	}
	got, err := s.TrialsWithoutReports(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i := range full {
		full[i].Reports = nil
	}
	if !reflect.DeepEqual(got, full) {
		t.Errorf("TrialsWithoutReports = %+v\nwant Trials without reports %+v", got, full)
	}
}

// testCancelled checks that a cancelled context stops every call before it
// changes anything, as database/sql does for the SQL storages: a caller
// that gave up (a worker shutting down, an HTTP client that went away)
// must not claim, finish or create behind its own back.
func testCancelled(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	waiting := add(t, s, st.ID, storage.Waiting, 0)
	running := add(t, s, st.ID, storage.Running, 1)
	before, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithCancel(ctx(t))
	cancel()
	calls := map[string]func() error{
		"CreateStudy": func() error {
			_, err := s.CreateStudy(c, storage.Study{Name: "new", Direction: "minimize", Sampler: "random", Space: json.RawMessage(`{}`)})
			return err
		},
		"GetStudy":    func() error { _, err := s.GetStudy(c, "s"); return err },
		"ListStudies": func() error { _, err := s.ListStudies(c); return err },
		"AddTrial": func() error {
			_, err := s.AddTrial(c, storage.Trial{StudyID: st.ID, State: storage.Waiting, RetryOf: -1, Params: json.RawMessage(`{"i":9}`)})
			return err
		},
		"ClaimTrial": func() error { _, _, err := s.ClaimTrial(c, st.ID, "w"); return err },
		"FinishTrial": func() error {
			return s.FinishTrial(c, running.ID, storage.Finish{State: storage.Complete, Value: ptr(1)})
		},
		"Heartbeat":            func() error { return s.Heartbeat(c, running.ID) },
		"Report":               func() error { return s.Report(c, running.ID, 1, 0.5) },
		"SetLogPath":           func() error { return s.SetLogPath(c, running.ID, "/tmp/log") },
		"GetTrial":             func() error { _, err := s.GetTrial(c, waiting.ID); return err },
		"Trials":               func() error { _, err := s.Trials(c, st.ID); return err },
		"TrialsWithoutReports": func() error { _, err := s.TrialsWithoutReports(c, st.ID); return err },
		"Reap":                 func() error { _, err := s.Reap(c, st.ID, time.Now().Add(time.Hour)); return err },
		"Lock":                 func() error { _, err := s.Lock(c, st.ID, "h", time.Minute); return err },
		"PutState":             func() error { return s.PutState(c, st.ID, "k", []byte("v")) },
		"GetState":             func() error { _, err := s.GetState(c, st.ID, "k"); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v, want context.Canceled", name, err)
		}
	}
	after, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("trials changed under a cancelled context:\nbefore %+v\nafter  %+v", before, after)
	}
	if _, err := s.GetStudy(ctx(t), "new"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a study was created under a cancelled context (GetStudy: %v)", err)
	}
	if _, err := s.GetState(ctx(t), st.ID, "k"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("state was written under a cancelled context (GetState: %v)", err)
	}
}
