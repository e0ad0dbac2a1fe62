package storagetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// pause lets the clock move past the stored (microsecond) resolution.
func pause() { time.Sleep(3 * time.Millisecond) }

// parallel runs fn(0..n-1) in n goroutines and returns their errors joined.
func parallel(n int, fn func(g int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	for g := range n {
		wg.Go(func() { errs[g] = fn(g) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func testConcurrentAdd(t *testing.T, s storage.Storage) {
	const goroutines, each = 8, 50
	st := NewStudy(t, s, "s")
	err := parallel(goroutines, func(g int) error {
		for i := range each {
			if _, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, RetryOf: -1,
				Params: fmt.Appendf(nil, `{"g":%d,"i":%d}`, g, i)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != goroutines*each {
		t.Fatalf("%d trials, want %d", len(ts), goroutines*each)
	}
	params := map[string]bool{}
	for i, tr := range ts {
		if tr.Number != i {
			t.Fatalf("trial at position %d has number %d: numbers must be 0..%d exactly once", i, tr.Number, len(ts)-1)
		}
		if params[string(tr.Params)] {
			t.Errorf("params %s stored twice", tr.Params)
		}
		params[string(tr.Params)] = true
	}
}

func testConcurrentClaim(t *testing.T, s storage.Storage) {
	const trials, goroutines = 100, 8
	st := NewStudy(t, s, "s")
	for i := range trials {
		add(t, s, st.ID, storage.Waiting, i)
	}
	claimed := make([][]storage.Trial, goroutines)
	err := parallel(goroutines, func(g int) error {
		for {
			tr, ok, err := s.ClaimTrial(ctx(t), st.ID, fmt.Sprintf("w%d", g))
			if err != nil || !ok {
				return err
			}
			claimed[g] = append(claimed[g], tr)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]string{}
	for g, ts := range claimed {
		for _, tr := range ts {
			if w, dup := seen[tr.ID]; dup {
				t.Errorf("trial %d claimed by both %s and w%d", tr.Number, w, g)
			}
			seen[tr.ID] = tr.Worker
			if tr.Worker != fmt.Sprintf("w%d", g) {
				t.Errorf("trial %d claimed by w%d records worker %q", tr.Number, g, tr.Worker)
			}
		}
	}
	if len(seen) != trials {
		t.Errorf("%d trials claimed, want %d", len(seen), trials)
	}
	ts, _ := s.Trials(ctx(t), st.ID)
	for _, tr := range ts {
		if tr.State != storage.Running || seen[tr.ID] != tr.Worker {
			t.Errorf("trial %d is %v for %q after the claims", tr.Number, tr.State, tr.Worker)
		}
	}
}

func testConcurrentFinish(t *testing.T, s storage.Storage) {
	const trials, goroutines = 10, 8
	st := NewStudy(t, s, "s")
	for i := range trials {
		tr := add(t, s, st.ID, storage.Running, i)
		errs := make([]error, goroutines)
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				v := float64(g)
				errs[g] = s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: &v})
			})
		}
		wg.Wait()
		winner := -1
		for g, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Errorf("trial %d: finishes %d and %d both won", i, winner, g)
			case err == nil:
				winner = g
			case !errors.Is(err, storage.ErrFinished):
				t.Errorf("trial %d: losing finish got %v, want ErrFinished", i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("trial %d: no finish won", i)
		}
		if got, _ := s.GetTrial(ctx(t), tr.ID); got.Value == nil || *got.Value != float64(winner) {
			t.Errorf("trial %d: stored value %v, winner wrote %d", i, got.Value, winner)
		}
	}
}
