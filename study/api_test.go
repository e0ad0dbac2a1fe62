package study

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/space"
)

// centre is a user's own sampler, under a name boa does not register.
type centre struct{}

func (centre) Name() string { return "centre" }
func (centre) Suggest(_ context.Context, h *sampler.History, _ *rand.Rand) ([]float64, error) {
	u := make([]float64, h.Space.Len())
	for i := range u {
		u[i] = 0.5
	}
	return u, nil
}

// TestNewTakesTheUsersSampler: New runs the sampler instance it is given,
// also one boa has no name for (a user's own, CoCaBO with a λ of one's
// own); it answered `unknown sampler "centre"`.
func TestNewTakesTheUsersSampler(t *testing.T) {
	s, err := New(testSpace(t), Options{Sampler: centre{}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := s.Ask(bg)
	if err != nil || tr.Float("x") != 0 {
		t.Fatalf("ask: %v, x = %v; want the centre's 0", err, tr.Params["x"])
	}
	if _, err := New(testSpace(t), Options{Sampler: cocabo.NewFixed(0.3)}); err != nil {
		t.Errorf("CoCaBO with λ = 0.3: %v", err)
	}
	// The instance is still held to the space it takes.
	cond := space.MustNew(
		space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"a", "b"}},
		space.Param{Name: "d", Kind: space.Int, Low: 1, High: 3, When: map[string][]string{"k": {"a"}}},
	)
	if _, err := New(cond, Options{Sampler: cocabo.NewFixed(0.3)}); err == nil || !strings.Contains(err.Error(), "conditional") {
		t.Errorf("CoCaBO on a conditional space: err = %v, want the refusal", err)
	}
}

// TestOptimizeRefusesANilObjective: a nil objective is an error at once;
// it panicked in every trial, which used n trials of the budget as FAILED
// ones and returned nil.
func TestOptimizeRefusesANilObjective(t *testing.T) {
	s := newStudy(t, Options{Budget: 3})
	err := s.Optimize(bg, nil, 2, OptimizeOptions{})
	if err == nil || !strings.Contains(err.Error(), "objective") {
		t.Fatalf("Optimize(nil): %v, want an error about the objective", err)
	}
	if n := len(trials(t, s)); n != 0 {
		t.Errorf("%d trials, want none", n)
	}
}

// TestOptimizeObjectiveCanPrune: an objective that returns ErrPruned
// (wrapped too) stops its trial as PRUNED with the value it returns, as
// Optuna's TrialPruned does; before, Optimize had no way to prune and the
// trial was FAILED with the error as reason.
func TestOptimizeObjectiveCanPrune(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	err := s.Optimize(bg, func(ctx context.Context, tr *Trial) (float64, error) {
		for step := range 3 {
			loss := 1 / float64(step+1)
			if err := tr.Report(ctx, int64(step), loss); err != nil {
				return 0, err
			}
			if tr.Number%2 == 1 && step == 1 {
				return loss, fmt.Errorf("step %d: %w", step, ErrPruned)
			}
		}
		return 0.25, nil
	}, 4, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range trials(t, s) {
		want, v := Complete, 0.25
		if tr.Number%2 == 1 {
			want, v = Pruned, 0.5
		}
		if tr.State != want || tr.Value != v || tr.Reason != "" {
			t.Errorf("trial %d: %s %v %q; want %s %v", tr.Number, tr.State, tr.Value, tr.Reason, want, v)
		}
	}
}
