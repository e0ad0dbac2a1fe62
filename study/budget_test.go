package study

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

func bowl(_ context.Context, t *Trial) (float64, error) {
	x := t.Float("x")
	return x*x + float64(t.Int("n")), nil
}

func paramsOf(t *testing.T, s *Study) []string {
	t.Helper()
	var out []string
	for _, tr := range trials(t, s) {
		if tr.State != Complete {
			t.Fatalf("trial %d is %v, want COMPLETE", tr.Number, tr.State)
		}
		out = append(out, fmt.Sprint(tr.Params))
	}
	return out
}

// TestSetBudget: run 30, look, run 20 more. A 30-trial study raised to 50
// ends with 50 trials whose first 30 are the original ones, and the GP
// proposes the last 20 as in a 50-trial study resumed at 30: it sees all
// of them.
func TestSetBudget(t *testing.T) {
	spec := Spec{Name: "b", Space: testSpace(t), Sampler: "gpbo", Seed: 3, Budget: 30}
	raised, err := Create(bg, storage.NewMemory(), spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := raised.Optimize(bg, bowl, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	first := paramsOf(t, raised)
	if err := raised.SetBudget(bg, 50); err != nil {
		t.Fatal(err)
	}
	if err := raised.Optimize(bg, bowl, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	got := paramsOf(t, raised)
	if len(got) != 50 || !slices.Equal(got[:30], first) {
		t.Fatalf("raised to 50: %d trials, first 30 kept %v; want 50 with the first 30 unchanged", len(got), len(got) >= 30 && slices.Equal(got[:30], first))
	}

	spec.Budget = 50
	store := storage.NewMemory()
	whole, err := Create(bg, store, spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := whole.Optimize(bg, bowl, 30, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	resumed, err := Open(bg, store, "b")
	if err != nil {
		t.Fatal(err)
	}
	if err := resumed.Optimize(bg, bowl, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := paramsOf(t, resumed); !slices.Equal(got, want) {
		t.Errorf("30 raised to 50 and 50 resumed at 30 differ:\n%v\n%v", got, want)
	}
}

// TestBudgetSeenByOthers: a budget raised by another process (another
// Study value on the same storage) is seen once the old one is used up.
func TestBudgetSeenByOthers(t *testing.T) {
	store := storage.NewMemory()
	a, err := Create(bg, store, Spec{Name: "o", Space: testSpace(t), Sampler: "random", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(bg, store, "o")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Optimize(bg, bowl, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := b.SetBudget(bg, 5); err != nil {
		t.Fatal(err)
	}
	if err := a.Optimize(bg, bowl, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := len(trials(t, a)); n != 5 || a.Budget() != 5 {
		t.Errorf("after another raised the budget to 5: %d trials, budget %d; want 5 and 5", n, a.Budget())
	}
	if err := a.SetBudget(bg, -1); err == nil {
		t.Error("SetBudget(-1) = nil, want an error")
	}
}

// TestOptimizeUntilStopped: a study without a budget runs until ctx is
// done, its Timeout passes, or Stop says so; trials running then finish.
func TestOptimizeUntilStopped(t *testing.T) {
	t.Run("ctx", func(t *testing.T) {
		s := newStudy(t, Options{})
		ctx, cancel := context.WithCancel(bg)
		n := 0
		err := s.Optimize(ctx, bowl, 0, OptimizeOptions{OnTrial: func(Trial) {
			if n++; n == 7 {
				cancel()
			}
		}})
		if !errors.Is(err, context.Canceled) || len(trials(t, s)) != 7 {
			t.Errorf("cancelled after 7 trials: %d trials, %v", len(trials(t, s)), err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		s := newStudy(t, Options{})
		slow := func(ctx context.Context, t *Trial) (float64, error) {
			time.Sleep(20 * time.Millisecond)
			return bowl(ctx, t)
		}
		err := s.Optimize(bg, slow, 0, OptimizeOptions{Workers: 2, Timeout: 150 * time.Millisecond})
		ts := trials(t, s)
		if err != nil || len(ts) < 2 {
			t.Fatalf("Timeout 150 ms: %d trials, %v; want a few and no error", len(ts), err)
		}
		for _, tr := range ts {
			if tr.State != Complete {
				t.Errorf("trial %d is %v: a trial running at the timeout finishes", tr.Number, tr.State)
			}
		}
	})
	t.Run("stop", func(t *testing.T) {
		s := newStudy(t, Options{Budget: 100})
		enough := errors.New("enough")
		err := s.Optimize(bg, bowl, 0, OptimizeOptions{Stop: func(tr Trial) error {
			if tr.Number >= 4 {
				return enough
			}
			return nil
		}})
		if !errors.Is(err, enough) || len(trials(t, s)) != 5 {
			t.Errorf("Stop from trial 4: %d trials, %v; want 5 and its error", len(trials(t, s)), err)
		}
	})
}
