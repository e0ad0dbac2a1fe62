package storagetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// Workers in internal/proc's form, which Reap's reasons describe.
const (
	deadA = "h:42:100.0a0b0c0d.1e2f3a4b.4026531836"
	deadB = "h:43:101.0a0b0c0d.1e2f3a4b.4026531836"
	live  = "h:44:102.0a0b0c0d.1e2f3a4b.4026531836"
	prior = "h:45:103.0a0b0c0d.1e2f3a4b.4026531836"
)

func addBy(t *testing.T, s storage.Storage, studyID int64, worker string, retryOf, i int) storage.Trial {
	t.Helper()
	tr, err := s.AddTrial(ctx(t), storage.Trial{StudyID: studyID, State: storage.Running, RetryOf: retryOf, Worker: worker,
		Params: fmt.Appendf(nil, `{"i":%d}`, i), X: []float64{float64(i) / 1000}})
	if err != nil {
		t.Fatalf("AddTrial: %v", err)
	}
	return tr
}

// testReapDead: RUNNING trials of workers the caller proved dead are
// failed and re-queued at once, with fresh heartbeats, by the rules of
// the lease: once, in one transaction.
func testReapDead(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	a := addBy(t, s, st.ID, deadA, -1, 0)
	b := addBy(t, s, st.ID, deadB, -1, 1)
	l := addBy(t, s, st.ID, live, -1, 2)
	done := addBy(t, s, st.ID, deadA, -1, 3)
	if err := s.FinishTrial(ctx(t), done.ID, storage.Finish{State: storage.Complete, Value: ptr(1)}); err != nil {
		t.Fatal(err)
	}
	// A re-run of a lost trial, lost again with its process: not re-run.
	lostOnce := addBy(t, s, st.ID, prior, -1, 4)
	if _, err := s.Reap(ctx(t), st.ID, time.Now().Add(-time.Hour), prior); err != nil {
		t.Fatal(err)
	}
	retry, ok, err := s.ClaimTrial(ctx(t), st.ID, deadA)
	if err != nil || !ok || retry.RetryOf != lostOnce.Number {
		t.Fatalf("claim the re-run of trial %d: %+v, %v, %v", lostOnce.Number, retry, ok, err)
	}
	n0 := len(trials(t, s, st.ID))

	failed, err := s.Reap(ctx(t), st.ID, time.Now().Add(-time.Hour), deadA, deadB)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for _, f := range failed {
		got[f.ID] = f.Reason
		if f.State != storage.Failed {
			t.Errorf("reaped trial %d is %v", f.Number, f.State)
		}
	}
	want := map[int64]string{
		a.ID:     "stale: its process pid 42 on host h is gone",
		b.ID:     "stale: its process pid 43 on host h is gone",
		retry.ID: "stale: its process pid 42 on host h is gone",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Reap(dead %s, %s) failed %v, want %v", deadA, deadB, got, want)
	}
	if g, _ := s.GetTrial(ctx(t), l.ID); g.State != storage.Running {
		t.Errorf("Reap touched the trial of a live worker: %v", g.State)
	}
	if g, _ := s.GetTrial(ctx(t), done.ID); g.State != storage.Complete {
		t.Errorf("Reap touched the finished trial of a dead worker: %v", g.State)
	}
	ts := trials(t, s, st.ID)
	requeued := map[int]int{}
	for _, tr := range ts[n0:] {
		if tr.State != storage.Waiting {
			t.Errorf("trial %d added by Reap is %v", tr.Number, tr.State)
		}
		requeued[tr.RetryOf]++
	}
	if len(ts) != n0+2 || requeued[a.Number] != 1 || requeued[b.Number] != 1 {
		t.Errorf("re-queued %v (%d trials, want %d), want one re-run each of trials %d and %d and none of the re-run %d",
			requeued, len(ts), n0+2, a.Number, b.Number, retry.Number)
	}
	if again, err := s.Reap(ctx(t), st.ID, time.Now().Add(-time.Hour), deadA, deadB); err != nil || len(again) != 0 {
		t.Errorf("second Reap = %+v, %v; want nothing", again, err)
	}

	// Stale and dead in one call: each trial with its own reason.
	st2 := NewStudy(t, s, "s2")
	quiet := addBy(t, s, st2.ID, live, -1, 0)
	gone := addBy(t, s, st2.ID, deadA, -1, 1)
	cut := staleCut()
	if err := s.Heartbeat(ctx(t), gone.ID); err != nil {
		t.Fatal(err)
	}
	failed, err = s.Reap(ctx(t), st2.ID, cut, deadA)
	if err != nil || len(failed) != 2 {
		t.Fatalf("Reap(stale and dead) = %+v, %v; want both", failed, err)
	}
	for _, f := range failed {
		w := "stale: its process pid 42 on host h is gone"
		if f.ID == quiet.ID {
			w = "stale: no heartbeat since " + quiet.Heartbeat.UTC().Format("2006-01-02T15:04:05.000Z07:00")
		}
		if f.Reason != w {
			t.Errorf("trial %d: reason %q, want %q", f.Number, f.Reason, w)
		}
	}
}

// testConcurrentReapDead: reapers that proved the same worker dead fail
// and re-queue each of its trials once.
func testConcurrentReapDead(t *testing.T, s storage.Storage) {
	const n, reapers = 12, 4
	st := NewStudy(t, s, "s")
	for i := range n {
		addBy(t, s, st.ID, deadA, -1, i)
	}
	addBy(t, s, st.ID, live, -1, n)
	reapOnce(t, reapers, n, func() ([]storage.Trial, error) {
		return s.Reap(ctx(t), st.ID, time.Now().Add(-time.Hour), deadA)
	})
	if ts := trials(t, s, st.ID); len(ts) != 2*n+1 {
		t.Errorf("%d trials, want %d + %d re-runs + the live one", len(ts), n, n)
	}
}

func trials(t *testing.T, s storage.Storage, studyID int64) []storage.Trial {
	t.Helper()
	ts, err := s.Trials(ctx(t), studyID)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}
