package study

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// runCurve asks a trial, reports curve from step 0 and returns it running.
func runCurve(t *testing.T, s *Study, curve ...float64) Trial {
	t.Helper()
	tr, err := s.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range curve {
		if err := tr.Report(bg, int64(i), v); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// ShouldPrune asks the study's pruner with the stored curves: the median
// pruner of Optuna stops a trial whose value at a step is worse than the
// median of the complete trials at that step, once 5 have completed.
func TestShouldPrune(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	for _, dir := range []Direction{Minimize, Maximize} {
		sign := 1.0
		if dir == Maximize {
			sign = -1
		}
		s, err := New(sp, Options{Sampler: random.Uniform{}, Seed: 1, Direction: dir, Pruner: pruner.NewMedian()})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			v := sign * float64(i)
			tr := runCurve(t, s, v, v)
			if prune, err := tr.ShouldPrune(bg); err != nil || prune {
				t.Fatalf("%v: trial %d before 5 complete: prune %v, %v", dir, i, prune, err)
			}
			if err := s.Tell(bg, tr.ID, Result{Value: v}); err != nil {
				t.Fatal(err)
			}
		}
		// The median at each step is ±2.
		bad, good, quiet := runCurve(t, s, sign*3), runCurve(t, s, sign*1), runCurve(t, s)
		for _, c := range []struct {
			tr   Trial
			want bool
		}{{bad, true}, {good, false}, {quiet, false}} {
			if prune, err := c.tr.ShouldPrune(bg); err != nil || prune != c.want {
				t.Errorf("%v: trial %d: prune %v, %v; want %v", dir, c.tr.Number, prune, err, c.want)
			}
		}
		// A later report can bring a trial back above the median: the best
		// value so far counts.
		if err := bad.Report(bg, 1, sign*0); err != nil {
			t.Fatal(err)
		}
		if prune, _ := bad.ShouldPrune(bg); prune {
			t.Errorf("%v: trial %d at its best, 0, is pruned", dir, bad.Number)
		}
		if err := s.Tell(bg, good.ID, Result{Value: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := good.ShouldPrune(bg); !errors.Is(err, ErrFinished) {
			t.Errorf("%v: a finished trial: %v, want ErrFinished", dir, err)
		}
	}
}

func TestShouldPruneWithoutPruner(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	s, err := New(sp, Options{Sampler: random.Uniform{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tr := runCurve(t, s, 1e9)
	if prune, err := tr.ShouldPrune(bg); err != nil || prune || s.Pruner() != nil {
		t.Errorf("no pruner: prune %v, %v, Pruner() = %v", prune, err, s.Pruner())
	}
}

// The pruner is stored with the study: opened again from the SQLite file,
// by another process say, the study prunes as it did; a bad one is refused.
func TestPrunerIsStored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "boa.db")
	store, err := storage.OpenSQLite(bg, path)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	three, two := 3, 2
	spec := Spec{Name: "p", Space: sp, Sampler: "random", Pruner: pruner.Spec{Type: "successive_halving", ReductionFactor: &three}}
	if _, err := Create(bg, store, spec); err != nil {
		t.Fatal(err)
	}
	bad := spec
	bad.Name, bad.Pruner = "q", pruner.Spec{Type: "successive_halving", ReductionFactor: &two, Percentile: new(float64)}
	if _, err := Create(bg, store, bad); err == nil {
		t.Error("a pruner with a field its type does not take was stored")
	}
	other, err := storage.OpenSQLite(bg, path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	s, err := Open(bg, other, "p")
	if err != nil {
		t.Fatal(err)
	}
	got := s.PrunerSpec()
	if got.Type != "successive_halving" || got.ReductionFactor == nil || *got.ReductionFactor != 3 || s.Pruner() == nil {
		t.Errorf("reopened: pruner %+v (%v)", got, s.Pruner())
	}
	// min_resource 1, η = 3: rung 0 at step 1. The first trial is promoted
	// (it is alone); the second, worse, is not.
	a := runCurve(t, s, 5, 1)
	if prune, err := a.ShouldPrune(bg); err != nil || prune {
		t.Fatalf("first trial: prune %v, %v", prune, err)
	}
	if err := s.Tell(bg, a.ID, Result{Value: 1}); err != nil {
		t.Fatal(err)
	}
	b := runCurve(t, s, 5, 2)
	if prune, err := b.ShouldPrune(bg); err != nil || !prune {
		t.Errorf("second, worse trial at rung 0: prune %v, %v; want true", prune, err)
	}
}

// partialSampler suggests at random and records the intermediate values
// it is given; fidelity is the same as a sampler.MultiFidelity.
type partialSampler struct{ seen *[]sampler.Partial }

func (p partialSampler) Name() string { return "random" }
func (p partialSampler) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	*p.seen = h.Partial
	return h.Space.Sample(rng), nil
}

type fidelity struct{ partialSampler }

func (fidelity) UsesPartial() {}

// TestPartialForMultiFidelity: a MultiFidelity sampler is given every
// report of the complete and pruned trials, in the minimised sense; any
// other sampler none, its trials loaded without their reports.
func TestPartialForMultiFidelity(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	for _, multi := range []bool{true, false} {
		var seen []sampler.Partial
		var smp sampler.Sampler = partialSampler{&seen}
		if multi {
			smp = fidelity{partialSampler{&seen}}
		}
		s, err := New(sp, Options{Name: "p", Direction: Maximize, Sampler: smp})
		if err != nil {
			t.Fatal(err)
		}
		tr := runCurve(t, s, 1, 2, 3)
		if err := s.Tell(bg, tr.ID, Result{Value: 3}); err != nil {
			t.Fatal(err)
		}
		pr := runCurve(t, s, 0.5)
		if err := s.Tell(bg, pr.ID, Result{Value: 0.5, Pruned: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Ask(bg); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 4, false: 0}[multi]; len(seen) != want {
			t.Fatalf("multi-fidelity %v: %d partial values, want %d: %v", multi, len(seen), want, seen)
		}
		if h, err := s.History(bg); err != nil || len(h.Partial) != len(seen) {
			t.Errorf("multi-fidelity %v: History has %d partial values, Ask %d (%v)", multi, len(h.Partial), len(seen), err)
		}
		if multi && (seen[2].Step != 2 || seen[2].Y != -3 || seen[3].Y != -0.5) {
			t.Errorf("partial values %v, want steps 0..2 at −1, −2, −3 then −0.5 (maximised)", seen)
		}
	}
}

// TestPruneOnChosenObjective: in a study of two objectives the reports
// are compared in the direction of the objective the pruner names, so the
// same curves are pruned the other way round when it names the other one
// (optuna/optuna#3450 asks for this).
func TestPruneOnChosenObjective(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	goals := []Goal{{Name: "accuracy", Direction: Maximize}, {Name: "loss", Direction: Minimize}}
	for objective, pruneHigh := range map[string]bool{"": false, "accuracy": false, "loss": true} {
		spec := Spec{Name: "p", Space: sp, Sampler: "random", Objectives: goals, Pruner: pruner.Spec{Type: "median", Objective: objective}}
		s, err := Create(bg, storage.NewMemory(), spec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			v := float64(i)
			tr := runCurve(t, s, v, v)
			if err := s.Tell(bg, tr.ID, Result{Values: []float64{v, v}}); err != nil {
				t.Fatal(err)
			}
		}
		high := runCurve(t, s, 3.5) // above the median 2 at step 0
		prune, err := high.ShouldPrune(bg)
		if err != nil || prune != pruneHigh {
			t.Errorf("pruner on %q: a report above the median pruned %v, %v; want %v", objective, prune, err, pruneHigh)
		}
	}
}
