// Package storagetest is the conformance suite every storage.Storage
// implementation must pass (etcd/Prometheus style: one suite, all back-ends).
// Call Run from a back-end's tests with a function that opens an empty
// storage for each sub-test.
package storagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// Run runs the conformance suite. open must return an empty, independent
// storage each time it is called (sub-tests run in parallel); Run closes it.
func Run(t *testing.T, open func(t *testing.T) storage.Storage) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s storage.Storage)
	}{
		{"Studies", testStudies},
		{"StudyValidation", testStudyValidation},
		{"StudyRoundTrip", testStudyRoundTrip},
		{"DeleteStudy", testDeleteStudy},
		{"SetBudget", testSetBudget},
		{"AddTrial", testAddTrial},
		{"AddTrialValidation", testAddTrialValidation},
		{"TrialRoundTrip", testTrialRoundTrip},
		{"DeepCopies", testDeepCopies},
		{"ClaimTrial", testClaimTrial},
		{"FinishTrial", testFinishTrial},
		{"FinishRequeue", testFinishRequeue},
		{"Feasible", testFeasible},
		{"Values", testValues},
		{"Heartbeat", testHeartbeat},
		{"Reports", testReports},
		{"SetLogPath", testSetLogPath},
		{"Trials", testTrials},
		{"TrialsWithoutReports", testTrialsWithoutReports},
		{"ChangedSince", testChangedSince},
		{"ChangedSinceConcurrent", testChangedSinceConcurrent},
		{"ConcurrentAdd", testConcurrentAdd},
		{"ConcurrentClaim", testConcurrentClaim},
		{"ConcurrentFinish", testConcurrentFinish},
		{"Reap", testReap},
		{"ReapRetryOfRetry", testReapRetryOfRetry},
		{"ReapRetryOfInterrupted", testReapRetryOfInterrupted},
		{"ConcurrentReap", testConcurrentReap},
		{"ReapDead", testReapDead},
		{"ConcurrentReapDead", testConcurrentReapDead},
		{"LockExclusion", testLockExclusion},
		{"LockExpiry", testLockExpiry},
		{"LockRenew", testLockRenew},
		{"LockCancel", testLockCancel},
		{"State", testState},
		{"LargeStudy", testLargeStudy},
		{"Cancelled", testCancelled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Each sub-test has a storage of its own, so they can overlap;
			// much of their time is waiting on leases, clocks and commits.
			t.Parallel()
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			tc.fn(t, s)
		})
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }

// NewStudy creates a minimal study named name and returns it.
func NewStudy(t testing.TB, s storage.Storage, name string) storage.Study {
	t.Helper()
	st, err := s.CreateStudy(context.Background(), storage.Study{
		Name: name, Direction: "minimize", Sampler: "random",
		Space: json.RawMessage(`{"x":{"type":"float","low":0,"high":1}}`),
	})
	if err != nil {
		t.Fatalf("CreateStudy(%q): %v", name, err)
	}
	return st
}

// add adds a trial in the given state with params {"i": i}.
func add(t testing.TB, s storage.Storage, studyID int64, state storage.State, i int) storage.Trial {
	t.Helper()
	tr, err := s.AddTrial(context.Background(), storage.Trial{
		StudyID: studyID, State: state, RetryOf: -1,
		Params: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)), X: []float64{float64(i) / 1000},
	})
	if err != nil {
		t.Fatalf("AddTrial: %v", err)
	}
	return tr
}

func ptr(v float64) *float64 { return &v }

func wantErr(t *testing.T, what string, err, sentinel error) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Errorf("%s: got error %v, want %v", what, err, sentinel)
	}
}

// wantInvalid checks that err is a validation error: it wraps
// storage.ErrInvalid and none of the other sentinels.
func wantInvalid(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, storage.ErrInvalid) {
		t.Errorf("%s: error %v, want one wrapping storage.ErrInvalid", what, err)
	}
	for _, s := range []error{storage.ErrNotFound, storage.ErrExists, storage.ErrFinished, storage.ErrNotRunning, storage.ErrLocked} {
		if errors.Is(err, s) {
			t.Errorf("%s: error %v should not match %v", what, err, s)
		}
	}
}

func recent(t *testing.T, what string, ts time.Time) {
	t.Helper()
	if ts.IsZero() || ts.Location() != time.UTC || time.Since(ts) > time.Minute || time.Until(ts) > time.Second {
		t.Errorf("%s = %v, want a recent UTC time", what, ts)
	}
}

func testStudies(t *testing.T, s storage.Storage) {
	list, err := s.ListStudies(ctx(t))
	if err != nil || list == nil || len(list) != 0 {
		t.Fatalf("ListStudies on empty storage = %#v, %v; want an empty, non-nil list", list, err)
	}
	a := NewStudy(t, s, "a")
	b := NewStudy(t, s, "b")
	if a.ID == b.ID {
		t.Errorf("two studies share ID %d", a.ID)
	}
	recent(t, "Created", a.Created)
	got, err := s.GetStudy(ctx(t), "b")
	if err != nil || !reflect.DeepEqual(got, b) {
		t.Errorf("GetStudy(b) = %+v, %v; want %+v", got, err, b)
	}
	_, err = s.CreateStudy(ctx(t), storage.Study{Name: "a", Direction: "maximize"})
	wantErr(t, "CreateStudy duplicate", err, storage.ErrExists)
	_, err = s.GetStudy(ctx(t), "nope")
	wantErr(t, "GetStudy unknown", err, storage.ErrNotFound)
	// No study can have a name with a NUL byte or invalid UTF-8, which
	// PostgreSQL refuses even to look for.
	for _, name := range []string{"a\x00", "\xff"} {
		_, err = s.GetStudy(ctx(t), name)
		wantErr(t, fmt.Sprintf("GetStudy(%q)", name), err, storage.ErrNotFound)
	}
	list, err = s.ListStudies(ctx(t))
	if err != nil || len(list) != 2 || !reflect.DeepEqual(list[0], a) || !reflect.DeepEqual(list[1], b) {
		t.Errorf("ListStudies = %+v, %v; want [a b]", list, err)
	}
}

// testSetBudget: a study's budget changes in place, for the other
// processes too (they read it back), and nothing else of it does.
func testSetBudget(t *testing.T, s storage.Storage) {
	a := NewStudy(t, s, "a")
	add(t, s, a.ID, storage.Waiting, 0)
	for _, b := range []int{50, 0, 7} {
		if err := s.SetBudget(ctx(t), a.ID, b); err != nil {
			t.Fatalf("SetBudget(%d): %v", b, err)
		}
		got, err := s.GetStudy(ctx(t), "a")
		want := a
		want.Budget = b
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("after SetBudget(%d): GetStudy = %+v, %v; want %+v", b, got, err, want)
		}
	}
	if ts, err := s.Trials(ctx(t), a.ID); err != nil || len(ts) != 1 {
		t.Errorf("after SetBudget: %d trials, %v; want the one trial kept", len(ts), err)
	}
	wantErr(t, "SetBudget unknown study", s.SetBudget(ctx(t), a.ID+100, 5), storage.ErrNotFound)
	wantInvalid(t, "SetBudget(-1)", s.SetBudget(ctx(t), a.ID, -1))
}

func testStudyValidation(t *testing.T, s storage.Storage) {
	for _, st := range []storage.Study{
		{Name: "", Direction: "minimize"},
		{Name: "x", Direction: "down"},
		{Name: "x", Direction: "minimize", Space: json.RawMessage(`{"a":`)},
		{Name: "x", Direction: "minimize", Config: json.RawMessage(`nope`)},
		{Name: "x", Direction: "minimize", Budget: -1},
	} {
		_, err := s.CreateStudy(ctx(t), st)
		wantInvalid(t, fmt.Sprintf("CreateStudy(%+v)", st), err)
	}
	if list, _ := s.ListStudies(ctx(t)); len(list) != 0 {
		t.Errorf("invalid studies were stored: %+v", list)
	}
}

func testStudyRoundTrip(t *testing.T, s storage.Storage) {
	in := storage.Study{
		Name:      "étude ✓ 学习 🚀",
		Direction: "maximize",
		Space:     json.RawMessage(`{"lr": {"type":"float","low":1e-5,"high":0.1,"log":true},  "名": "値"}`),
		Sampler:   "gpbo",
		Config:    json.RawMessage(`{"workers":4,"objective":{"command":["python3","train.py"]}}`),
		Seed:      math.MaxUint64,
		Budget:    250,
		Attrs:     map[string]string{"owner": "ada", "note": "ünïcödé"},
	}
	out, err := s.CreateStudy(ctx(t), in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.GetStudy(ctx(t), in.Name)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, out) {
		t.Errorf("GetStudy = %+v\nCreateStudy returned %+v", got, out)
	}
	in.ID, in.Created = out.ID, out.Created
	if !reflect.DeepEqual(got, in) {
		t.Errorf("round trip changed the study:\n got %+v\nwant %+v", got, in)
	}
	// nil Config and Attrs stay nil; Seed 0 stays 0.
	bare, err := s.CreateStudy(ctx(t), storage.Study{Name: "bare", Direction: "minimize"})
	if err != nil {
		t.Fatal(err)
	}
	got, _ = s.GetStudy(ctx(t), "bare")
	if got.Config != nil || got.Space != nil || got.Attrs != nil || got.Seed != 0 || !reflect.DeepEqual(got, bare) {
		t.Errorf("bare study round trip = %+v", got)
	}
}
