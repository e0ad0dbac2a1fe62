package storagetest

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// staleCut returns a time after the heartbeats so far; heartbeats sent after
// it are fresh.
func staleCut() time.Time {
	pause()
	cut := time.Now()
	pause()
	return cut
}

func testReap(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	stale, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Batch: 1, Origin: "design", Worker: "dead",
		Params: []byte(`{"lr":0.1,"名":"✓"}`), X: []float64{math.Pi / 10, 1.0 / 3}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Report(ctx(t), stale.ID, 3, 0.25); err != nil {
		t.Fatal(err)
	}
	fresh := add(t, s, st.ID, storage.Running, 1)
	waiting := add(t, s, st.ID, storage.Waiting, 2)
	done := add(t, s, st.ID, storage.Running, 3)
	if err := s.FinishTrial(ctx(t), done.ID, storage.Finish{State: storage.Complete, Value: ptr(1)}); err != nil {
		t.Fatal(err)
	}
	cut := staleCut()
	if err := s.Heartbeat(ctx(t), fresh.ID); err != nil {
		t.Fatal(err)
	}
	_, err = s.Reap(ctx(t), 999999, cut)
	wantErr(t, "Reap unknown study", err, storage.ErrNotFound)

	failed, err := s.Reap(ctx(t), st.ID, cut)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 1 || failed[0].ID != stale.ID {
		t.Fatalf("Reap = %+v, want only trial %d", failed, stale.Number)
	}
	f := failed[0]
	wantReason := "stale: no heartbeat since " + stale.Heartbeat.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	if f.State != storage.Failed || f.Reason != wantReason || f.Worker != "dead" || len(f.Reports) != 1 {
		t.Errorf("reaped trial = %+v, want FAILED with reason %q", f, wantReason)
	}
	recent(t, "Finished", f.Finished)
	if got, _ := s.GetTrial(ctx(t), stale.ID); got.State != storage.Failed || got.Reason != wantReason || !got.Finished.Equal(f.Finished) {
		t.Errorf("stored reaped trial = %+v", got)
	}
	for _, tr := range []storage.Trial{fresh, waiting, done} {
		if got, _ := s.GetTrial(ctx(t), tr.ID); got.State != tr.State && tr.ID != done.ID {
			t.Errorf("Reap touched trial %d: %v → %v", tr.Number, tr.State, got.State)
		}
	}
	if got, _ := s.GetTrial(ctx(t), done.ID); got.State != storage.Complete {
		t.Errorf("Reap touched the finished trial: %+v", got)
	}

	ts, _ := s.Trials(ctx(t), st.ID)
	if len(ts) != 5 {
		t.Fatalf("%d trials after Reap, want 4 + 1 re-queued", len(ts))
	}
	r := ts[4]
	if r.State != storage.Waiting || r.RetryOf != stale.Number || r.Number != 4 || string(r.Params) != string(stale.Params) || r.Batch != stale.Batch || r.Origin != stale.Origin || r.Worker != "" || r.Reports != nil {
		t.Errorf("re-queued trial = %+v, want WAITING copy of trial %d, in its batch, with its origin", r, stale.Number)
	}
	for i := range stale.X {
		if math.Float64bits(r.X[i]) != math.Float64bits(stale.X[i]) {
			t.Errorf("re-queued X = %v, want %v exactly", r.X, stale.X)
		}
	}
	// Reaping again finds nothing and re-queues nothing.
	if again, err := s.Reap(ctx(t), st.ID, cut); err != nil || len(again) != 0 {
		t.Errorf("second Reap = %+v, %v; want nothing", again, err)
	}
	if ts, _ := s.Trials(ctx(t), st.ID); len(ts) != 5 {
		t.Errorf("second Reap re-queued again: %d trials", len(ts))
	}
	// The oldest WAITING trial is claimed first: #2, then the re-queued #4.
	if tr, ok, _ := s.ClaimTrial(ctx(t), st.ID, "w"); !ok || tr.ID != waiting.ID {
		t.Errorf("claim after reap = %+v", tr)
	}
}

func testReapRetryOfRetry(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	orig := add(t, s, st.ID, storage.Running, 0)
	if _, err := s.Reap(ctx(t), st.ID, staleCut()); err != nil {
		t.Fatal(err)
	}
	retry, ok, err := s.ClaimTrial(ctx(t), st.ID, "w2")
	if err != nil || !ok || retry.RetryOf != orig.Number {
		t.Fatalf("claiming the retry = %+v, %v, %v", retry, ok, err)
	}
	failed, err := s.Reap(ctx(t), st.ID, staleCut())
	if err != nil || len(failed) != 1 || failed[0].ID != retry.ID || failed[0].State != storage.Failed {
		t.Fatalf("reaping the retry = %+v, %v", failed, err)
	}
	if !strings.HasPrefix(failed[0].Reason, "stale: no heartbeat since ") {
		t.Errorf("reason %q", failed[0].Reason)
	}
	ts, _ := s.Trials(ctx(t), st.ID)
	if len(ts) != 2 {
		t.Errorf("a retry of a retry was re-queued: %d trials", len(ts))
	}
}

// testReapRetryOfInterrupted: a re-run of an interrupted trial (not a
// lost one) that is lost in its turn is re-run once, as a first loss is.
func testReapRetryOfInterrupted(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	orig := add(t, s, st.ID, storage.Running, 0)
	if err := s.FinishTrial(ctx(t), orig.ID, storage.Finish{State: storage.Failed, Reason: "interrupted"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Waiting, RetryOf: orig.Number, Params: orig.Params}); err != nil {
		t.Fatal(err)
	}
	retry, ok, err := s.ClaimTrial(ctx(t), st.ID, "w")
	if err != nil || !ok {
		t.Fatalf("claiming the retry = %+v, %v, %v", retry, ok, err)
	}
	if _, err := s.Reap(ctx(t), st.ID, staleCut()); err != nil {
		t.Fatal(err)
	}
	ts, _ := s.Trials(ctx(t), st.ID)
	if len(ts) != 3 || ts[2].State != storage.Waiting || ts[2].RetryOf != retry.Number {
		t.Fatalf("the lost re-run of an interrupted trial was not re-queued: %+v", ts)
	}
	// Lost a second time: not re-run again.
	if _, ok, err := s.ClaimTrial(ctx(t), st.ID, "w"); err != nil || !ok {
		t.Fatal(err)
	}
	if _, err := s.Reap(ctx(t), st.ID, staleCut()); err != nil {
		t.Fatal(err)
	}
	if ts, _ := s.Trials(ctx(t), st.ID); len(ts) != 3 {
		t.Errorf("a configuration lost twice was re-queued again: %d trials", len(ts))
	}
}

func testConcurrentReap(t *testing.T, s storage.Storage) {
	const stale, reapers = 20, 4
	st := NewStudy(t, s, "s")
	for i := range stale {
		add(t, s, st.ID, storage.Running, i)
	}
	cut := staleCut()
	reapOnce(t, reapers, stale, func() ([]storage.Trial, error) { return s.Reap(ctx(t), st.ID, cut) })
	ts, _ := s.Trials(ctx(t), st.ID)
	retries := map[int]int{}
	for _, tr := range ts {
		if tr.RetryOf >= 0 {
			retries[tr.RetryOf]++
		}
	}
	if len(ts) != 2*stale || len(retries) != stale {
		t.Errorf("%d trials with %d distinct retries, want %d and %d", len(ts), len(retries), 2*stale, stale)
	}
	for n, k := range retries {
		if k != 1 {
			t.Errorf("trial %d re-queued %d times", n, k)
		}
	}
}

func testState(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	other := NewStudy(t, s, "other")
	_, err := s.GetState(ctx(t), st.ID, "bandit")
	wantErr(t, "GetState absent", err, storage.ErrNotFound)
	wantErr(t, "PutState unknown study", s.PutState(ctx(t), 999999, "k", []byte("v")), storage.ErrNotFound)
	bin := []byte{0, 1, 2, 0xff, 0xfe, '\n', 0}
	for _, kv := range []struct {
		study int64
		key   string
		value []byte
	}{{st.ID, "bandit", []byte(`{"w":[1,2]}`)}, {st.ID, "bandit", bin}, {other.ID, "bandit", []byte("other")}, {st.ID, "empty", nil}, {st.ID, "ключ ✓", []byte("ü")}} {
		if err := s.PutState(ctx(t), kv.study, kv.key, kv.value); err != nil {
			t.Fatalf("PutState(%d, %q): %v", kv.study, kv.key, err)
		}
	}
	for _, kv := range []struct {
		study int64
		key   string
		want  string
	}{{st.ID, "bandit", string(bin)}, {other.ID, "bandit", "other"}, {st.ID, "empty", ""}, {st.ID, "ключ ✓", "ü"}} {
		got, err := s.GetState(ctx(t), kv.study, kv.key)
		if err != nil || string(got) != kv.want {
			t.Errorf("GetState(%d, %q) = %q, %v; want %q", kv.study, kv.key, got, err, kv.want)
		}
	}
	got, _ := s.GetState(ctx(t), st.ID, "bandit")
	got[0] = 42
	if again, _ := s.GetState(ctx(t), st.ID, "bandit"); again[0] != 0 {
		t.Error("GetState returned an alias of the stored bytes")
	}
}

func testLargeStudy(t *testing.T, s storage.Storage) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	st := Fill(t, s, "large", n)
	start := time.Now()
	ts, err := s.Trials(ctx(t), st.ID)
	took := time.Since(start)
	if err != nil || len(ts) != n {
		t.Fatalf("Trials = %d trials, %v; want %d", len(ts), err, n)
	}
	t.Logf("Trials of a %d-trial study: %v", n, took)
	withReports := 0
	for i, tr := range ts {
		if tr.Number != i || tr.State != storage.Complete || tr.Value == nil || len(tr.X) != 3 {
			t.Fatalf("trial %d = %+v", i, tr)
		}
		switch len(tr.Reports) {
		case 0:
		case 3:
			withReports++
		default:
			t.Fatalf("trial %d has reports %v", i, tr.Reports)
		}
	}
	if want := (n + 9) / 10; withReports != want {
		t.Errorf("%d trials with reports, want %d", withReports, want)
	}
}

// Fill creates a study named name with n COMPLETE trials (params, X,
// metrics; every tenth with three reports), adding them from 8 goroutines.
func Fill(t testing.TB, s storage.Storage, name string, n int) storage.Study {
	t.Helper()
	st := NewStudy(t, s, name)
	const workers = 8
	err := parallel(workers, func(g int) error {
		for i := g; i < n; i += workers {
			tr, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Worker: "fill",
				Params: fmt.Appendf(nil, `{"lr":%g,"layers":%d,"kernel":"rbf"}`, float64(i)/float64(n), i%7),
				X:      []float64{float64(i) / float64(n), float64(i%7) / 7, 0.5}})
			if err != nil {
				return err
			}
			if i%10 == 0 {
				for step := range int64(3) {
					if err := s.Report(t.Context(), tr.ID, step, float64(step)/3); err != nil {
						return err
					}
				}
			}
			v := float64(i) / 3
			if err := s.FinishTrial(t.Context(), tr.ID, storage.Finish{State: storage.Complete, Value: &v,
				Metrics: map[string]float64{"acc": 1 - v/float64(n)}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Fill: %v", err)
	}
	return st
}

// reapOnce runs reap on reapers goroutines at once and checks that want
// trials were reaped in all, each reported FAILED by exactly one of them.
func reapOnce(t *testing.T, reapers, want int, reap func() ([]storage.Trial, error)) {
	t.Helper()
	var mu sync.Mutex
	reaped := map[int64]int{}
	err := parallel(reapers, func(int) error {
		failed, err := reap()
		mu.Lock()
		defer mu.Unlock()
		for _, f := range failed {
			reaped[f.ID]++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(reaped) != want {
		t.Errorf("%d trials reaped, want %d", len(reaped), want)
	}
	for id, n := range reaped {
		if n != 1 {
			t.Errorf("trial id %d reported FAILED by %d reapers", id, n)
		}
	}
}
