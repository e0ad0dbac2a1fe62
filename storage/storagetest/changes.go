package storagetest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// Changes is a reader that keeps the trials of one study it has read and
// merges what TrialsChangedSince returns, as study.Study does: what the
// conformance suite and the multi-process tests compare with a full read.
type Changes struct {
	StudyID int64
	Last    int64
	Trials  []storage.Trial // by Number
}

// Read merges the trials changed since c.Last and returns how many came back.
func (c *Changes) Read(t testing.TB, s storage.Storage) int {
	t.Helper()
	ts, last, err := s.TrialsChangedSince(t.Context(), c.StudyID, c.Last)
	if err != nil {
		t.Fatalf("TrialsChangedSince(%d): %v", c.Last, err)
	}
	if last < c.Last {
		t.Fatalf("TrialsChangedSince(%d): last %d went back", c.Last, last)
	}
	for _, tr := range ts {
		switch {
		case tr.Reports != nil:
			t.Fatalf("trial %d came back with reports", tr.Number)
		case tr.Number < len(c.Trials):
			c.Trials[tr.Number] = tr
		case tr.Number == len(c.Trials):
			c.Trials = append(c.Trials, tr)
		default:
			t.Fatalf("trial %d came back before trial %d", tr.Number, len(c.Trials))
		}
	}
	c.Last = last
	return len(ts)
}

// Check fails t unless the merged trials are what TrialsWithoutReports reads.
func (c *Changes) Check(t testing.TB, s storage.Storage, what string) {
	t.Helper()
	want, err := s.TrialsWithoutReports(t.Context(), c.StudyID)
	if err != nil {
		t.Fatal(err)
	}
	got := c.Trials
	if got == nil {
		got = []storage.Trial{}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after %s: merged changes\n%+v\nwant a full read\n%+v", what, got, want)
	}
}

func testChangedSince(t *testing.T, s storage.Storage) {
	if _, _, err := s.TrialsChangedSince(ctx(t), 999, 0); err == nil {
		t.Errorf("TrialsChangedSince of an unknown study: no error")
	} else {
		wantErr(t, "TrialsChangedSince of an unknown study", err, storage.ErrNotFound)
	}
	st := NewStudy(t, s, "changes")
	other := NewStudy(t, s, "other")
	c := &Changes{StudyID: st.ID}
	c.Read(t, s)
	c.Check(t, s, "nothing")
	step := func(what string, want int, write func()) {
		t.Helper()
		before := c.Last
		write()
		if n := c.Read(t, s); n != want {
			t.Errorf("after %s: %d trials changed, want %d", what, n, want)
		}
		if want > 0 && c.Last <= before {
			t.Errorf("after %s: last %d, want more than %d", what, c.Last, before)
		}
		c.Check(t, s, what)
		if n := c.Read(t, s); n != 0 {
			t.Errorf("after %s, then nothing: %d trials changed, want 0", what, n)
		}
	}
	var a, b, d storage.Trial
	step("AddTrial", 2, func() {
		a = add(t, s, st.ID, storage.Waiting, 0)
		b = add(t, s, st.ID, storage.Running, 1)
		add(t, s, other.ID, storage.Running, 9) // another study's: not this one's change
	})
	step("ClaimTrial", 1, func() {
		if _, ok, err := s.ClaimTrial(ctx(t), st.ID, "w"); err != nil || !ok {
			t.Fatalf("ClaimTrial: %v %v", ok, err)
		}
	})
	// What changes no trial takes no change number: an ask reaps and
	// claims before it suggests, and mostly finds nothing to do, so that
	// is all it then writes (the SQL stores look before they write).
	unchanged := func(what string, op func() (int, error)) {
		t.Helper()
		before := c.Last
		if k, err := op(); err != nil || k != 0 {
			t.Fatalf("%s: %d trials, %v; want none", what, k, err)
		}
		if n := c.Read(t, s); n != 0 || c.Last != before {
			t.Errorf("after %s: %d trials changed, last %d → %d; want none and last as it was", what, n, before, c.Last)
		}
	}
	unchanged("a Reap with nothing stale", func() (int, error) {
		failed, err := s.Reap(ctx(t), st.ID, time.Now().Add(-time.Hour), "gone")
		return len(failed), err
	})
	unchanged("a ClaimTrial with nothing waiting", func() (int, error) {
		_, ok, err := s.ClaimTrial(ctx(t), st.ID, "w")
		if ok {
			return 1, err
		}
		return 0, err
	})
	if _, _, err := s.ClaimTrial(ctx(t), 999999, "w"); err == nil {
		t.Errorf("ClaimTrial of an unknown study: no error")
	} else {
		wantErr(t, "ClaimTrial of an unknown study", err, storage.ErrNotFound)
	}
	step("FinishTrial", 1, func() {
		if err := s.FinishTrial(ctx(t), b.ID, storage.Finish{State: storage.Complete, Value: ptr(1),
			Metrics: map[string]float64{"m": 2}}); err != nil {
			t.Fatal(err)
		}
	})
	step("FinishTrial with Requeue", 2, func() {
		if err := s.FinishTrial(ctx(t), a.ID, storage.Finish{State: storage.Failed, Reason: "x", Requeue: true}); err != nil {
			t.Fatal(err)
		}
	})
	step("SetLogPath", 1, func() {
		if err := s.SetLogPath(ctx(t), a.ID, "/tmp/log"); err != nil {
			t.Fatal(err)
		}
	})
	step("Reap", 2, func() {
		d = add(t, s, st.ID, storage.Running, 3)
		c.Read(t, s)
		if _, err := s.Reap(ctx(t), st.ID, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	})
	step("a finish that fails", 0, func() {
		if err := s.FinishTrial(ctx(t), d.ID, storage.Finish{State: storage.Failed}); err == nil {
			t.Fatal("FinishTrial of a FAILED trial: no error")
		}
	})
	// A reader that starts afresh reads everything.
	fresh := &Changes{StudyID: st.ID}
	if n := fresh.Read(t, s); n != len(c.Trials) {
		t.Errorf("from 0: %d trials, want %d", n, len(c.Trials))
	}
	fresh.Check(t, s, "a fresh read")
}

// testChangedSinceConcurrent reads a study's changes over and over while
// writers add, claim, finish and re-queue its trials at once: a change
// committed with a number at or below a last already returned would be
// missed for good, and the merged trials would then differ from a full
// read at the end.
func testChangedSinceConcurrent(t *testing.T, s storage.Storage) {
	const writers, each = 4, 25
	st := NewStudy(t, s, "changes")
	c := &Changes{StudyID: st.ID}
	done := make(chan error, 1)
	go func() {
		done <- parallel(writers, func(g int) error {
			for i := range each {
				_, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Waiting, RetryOf: -1,
					Params: []byte(`{}`), X: []float64{float64(g), float64(i)}})
				if err != nil {
					return err
				}
				claimed, ok, err := s.ClaimTrial(ctx(t), st.ID, "w")
				if err != nil || !ok {
					return fmt.Errorf("claim: %v %v", ok, err)
				}
				f := storage.Finish{State: storage.Complete, Value: ptr(float64(i))}
				if i%5 == 0 {
					f = storage.Finish{State: storage.Failed, Reason: "killed", Requeue: true}
				}
				if err := s.FinishTrial(ctx(t), claimed.ID, f); err != nil {
					return err
				}
			}
			return nil
		})
	}()
	for reading := true; reading; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			reading = false
		default:
			c.Read(t, s)
		}
	}
	c.Read(t, s)
	c.Check(t, s, "concurrent writers")
}
