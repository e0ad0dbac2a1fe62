package study

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
)

// Every trial failing is an error, with the most common reason counted
// (grouped by first line); one success is not.
func TestOptimizeAllFailed(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	obj := func(_ context.Context, tr *Trial) (float64, error) {
		if tr.Number%4 == 3 {
			return 0, errors.New("disk full")
		}
		return 0, fmt.Errorf("exit code 1\nstderr of trial %d", tr.Number)
	}
	err := s.Optimize(bg, obj, 8, OptimizeOptions{})
	var af *AllFailedError
	if !errors.As(err, &af) || !errors.Is(err, ErrAllFailed) {
		t.Fatalf("Optimize = %v, want an *AllFailedError", err)
	}
	if want := "study study: all 8 trials failed; most common reason (6×): exit code 1"; err.Error() != want || af.First.Number != 0 {
		t.Errorf("error %q (first trial %d), want %q (trial 0)", err, af.First.Number, want)
	}
	ok := 0
	obj2 := func(ctx context.Context, tr *Trial) (float64, error) {
		if ok == 0 {
			ok++
			return 1, nil
		}
		return obj(ctx, tr)
	}
	if err := s.Optimize(bg, obj2, 3, OptimizeOptions{}); err != nil {
		t.Errorf("a run with a trial complete: %v", err)
	}
	if err := AllFailed("s", []Trial{{State: Failed, Reason: "x"}}); err == nil || err.Error() != "study s: its only trial failed: x" {
		t.Errorf("AllFailed(one) = %v", err)
	}
	if AllFailed("s", nil) != nil || AllFailed("s", []Trial{{State: Failed}, {State: Pruned}}) != nil {
		t.Error("AllFailed of none, or with a PRUNED trial, is not nil")
	}
}

// A misspelt parameter fails the trial with a message naming the valid
// ones, not "panicked" and a stack; an inactive one says so.
func TestOptimizeMissingParam(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	err := s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) { return tr.Float("lrr"), nil }, 2, OptimizeOptions{})
	if !errors.Is(err, ErrAllFailed) {
		t.Fatalf("Optimize = %v", err)
	}
	for _, tr := range trials(t, s) {
		if want := fmt.Sprintf(`trial %d has no parameter "lrr" (parameters: x, n, act)`, tr.Number); tr.Reason != want {
			t.Errorf("reason %q, want %q", tr.Reason, want)
		}
	}
	if !strings.HasSuffix(err.Error(), `(2×): trial 0 has no parameter "lrr" (parameters: x, n, act)`) {
		t.Errorf("error %q", err)
	}

	sp, err := space.New(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := New(sp, Options{Sampler: random.Uniform{}})
	if _, err := c.Enqueue(bg, space.Assignment{"kernel": "rbf"}); err != nil {
		t.Fatal(err)
	}
	_ = c.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) { return float64(tr.Int("degree")), nil }, 1, OptimizeOptions{})
	want := `trial 0 has no parameter "degree": it is conditional and inactive in this configuration (test t.Params["degree"] first)`
	if r := trials(t, c)[0].Reason; r != want {
		t.Errorf("inactive: reason %q, want %q", r, want)
	}
	// A trial read back (no study) names the parameters it has.
	tr := Trial{Number: 4, Params: space.Assignment{"b": 1.0, "a": 2}}
	func() {
		defer func() {
			pe, ok := recover().(*ParamAccessError)
			if !ok || pe.Error() != `trial 4 has no parameter "c" (parameters: a, b)` || pe.Name != "c" || pe.Trial != 4 {
				t.Errorf("recovered %v", pe)
			}
		}()
		tr.Float("c")
	}()
}
