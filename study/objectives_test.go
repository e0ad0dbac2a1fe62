package study

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/transform"
)

var accLatency = []Goal{{Name: "accuracy", Direction: Maximize}, {Name: "latency", Direction: Minimize}}

// TestMultiObjective: a two-objective study stores each trial's values,
// gives its sampler both in the minimised sense, answers its Pareto front
// (ties kept, dominated and infeasible trials left out), calls best the
// front's best in the first objective, and fails a trial whose values do
// not match its objectives with a reason that names them.
func TestMultiObjective(t *testing.T) {
	s := newStudy(t, Options{Objectives: accLatency})
	if !s.MultiObjective() || s.Direction() != Maximize || !slices.Equal(s.Objectives(), accLatency) {
		t.Fatalf("objectives %v, direction %v", s.Objectives(), s.Direction())
	}
	tell := func(r Result) Trial {
		t.Helper()
		tr, err := s.Ask(bg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Tell(bg, tr.ID, r); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	tell(Result{Values: []float64{0.90, 5}})         // 0: front
	tell(Result{Values: []float64{0.80, 6}})         // 1: dominated by 0
	tell(Result{Values: []float64{0.95, 9}})         // 2: front
	tell(Result{Values: []float64{0.90, 5}})         // 3: equal to 0: front too
	tell(Result{Values: []float64{0.70, 1}})         // 4: front
	tell(Result{Value: 0.99})                        // 5: one value: FAILED
	tell(Result{Values: []float64{1, 2, 3}})         // 6: three: FAILED
	tell(Result{Values: []float64{0.5, math.NaN()}}) // 7: NaN latency: FAILED
	all := trials(t, s)
	for i, want := range map[int]string{5: "returned 1 value, but the study has 2 objectives (accuracy, latency)", 6: "3 values", 7: "objective latency returned NaN"} {
		if all[i].State != Failed || !strings.Contains(all[i].Reason, want) {
			t.Errorf("trial %d: %v %q, want FAILED with %q", i, all[i].State, all[i].Reason, want)
		}
	}
	if !slices.Equal(all[2].Values, []float64{0.95, 9}) || all[2].Value != 0.95 {
		t.Errorf("trial 2: value %v, values %v", all[2].Value, all[2].Values)
	}
	front, err := s.Front(bg)
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, f := range front {
		numbers = append(numbers, f.Number)
	}
	if !slices.Equal(numbers, []int{0, 2, 3, 4}) {
		t.Errorf("front %v, want trials 0, 2, 3, 4", numbers)
	}
	if best, ok, err := s.Best(bg); err != nil || !ok || best.Number != 2 {
		t.Errorf("best %d, %v, %v; want trial 2 (the front's highest accuracy)", best.Number, ok, err)
	}
	sum, err := s.Summary(bg)
	if err != nil || !slices.Equal(sum.Front, []int{0, 2, 3, 4}) || sum.Best != 2 {
		t.Errorf("summary front %v, best %d, %v", sum.Front, sum.Best, err)
	}
	h, err := s.History(bg)
	if err != nil {
		t.Fatal(err)
	}
	if h.Objectives != 2 || len(h.Observed) != 5 || !slices.Equal(h.Observed[2].Ys, []float64{-0.95, 9}) || h.Observed[2].Y != -0.95 {
		t.Errorf("history: %d objectives, %d observed, trial 2 %v (Y %v); want 2, 5, [-0.95 9]", h.Objectives, len(h.Observed), h.Observed[2].Ys, h.Observed[2].Y)
	}
	if len(h.Failed) != 3 {
		t.Errorf("%d failed in the history, want 3", len(h.Failed))
	}
}

// TestMultiObjectiveRefuses what a study of several objectives cannot
// take: a single-objective sampler, a transform, unnamed or repeated
// objectives, and a pruner on an objective it does not have.
func TestMultiObjectiveRefuses(t *testing.T) {
	for what, o := range map[string]Options{
		"sampler gpbo optimises one objective": {Objectives: accLatency, Sampler: gpbo.New()},
		"takes none":                           {Objectives: accLatency, Transform: transform.Log},
		"objective 2 has no name":              {Objectives: []Goal{{Name: "a"}, {}}},
		`"a" is named twice`:                   {Objectives: []Goal{{Name: "a"}, {Name: "a"}}},
		"objective name":                       {Objectives: []Goal{{Name: "a b"}, {Name: "c"}}},
	} {
		if o.Sampler == nil {
			_, err := New(testSpace(t), Options{Objectives: o.Objectives, Transform: o.Transform, Sampler: nil})
			if err == nil || !strings.Contains(err.Error(), what) {
				t.Errorf("%v: error %v, want %q", o.Objectives, err, what)
			}
			continue
		}
		if _, err := New(testSpace(t), o); err == nil || !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), "random") {
			t.Errorf("%v: error %v, want %q and the samplers that can (random)", o.Objectives, err, what)
		}
	}
	spec := Spec{Name: "p", Space: testSpace(t), Sampler: "random", Objectives: accLatency, Pruner: pruner.Spec{Type: "median", Objective: "size"}}
	if _, err := Create(bg, storage.NewMemory(), spec); err == nil || !strings.Contains(err.Error(), `pruner.objective: "size" is not an objective of the study (accuracy, latency)`) {
		t.Errorf("pruner on an unknown objective: %v", err)
	}
}

// TestMultiObjectiveReopens: the objectives are stored with the study, so
// a study reopened from SQLite has them, resumes with the same file, and
// refuses a file with other objectives or one objective; the pruner's
// objective sets the sense its reports are compared in.
func TestMultiObjectiveReopens(t *testing.T) {
	url := "sqlite:" + filepath.Join(t.TempDir(), "mo.db")
	store, err := storage.Open(bg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	spec := Spec{Name: "mo", Space: testSpace(t), Sampler: "random", Objectives: accLatency, Pruner: pruner.Spec{Type: "median", Objective: "latency"}}
	if _, err := Create(bg, store, spec); err != nil {
		t.Fatal(err)
	}
	s, err := Open(bg, store, "mo")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Objectives(), accLatency) || s.pruneDirection() != Minimize {
		t.Errorf("reopened: objectives %v, pruner direction %v", s.Objectives(), s.pruneDirection())
	}
	if err := s.CheckResume(spec, url); err != nil {
		t.Errorf("resume with the same file: %v", err)
	}
	other := spec
	other.Objectives = []Goal{{Name: "accuracy", Direction: Maximize}, {Name: "size", Direction: Minimize}}
	if err := s.CheckResume(other, url); err == nil || !strings.Contains(err.Error(), "has objectives [accuracy (maximize), latency (minimize)], the file says [accuracy (maximize), size (minimize)]") {
		t.Errorf("resume with other objectives: %v", err)
	}
	single := spec
	single.Objectives, single.Direction = nil, Maximize
	if err := s.CheckResume(single, url); err == nil || !strings.Contains(err.Error(), "the file says maximize") {
		t.Errorf("resume with one objective: %v", err)
	}
}

// TestFidelityStudy: a study's fidelity is stored with it, reaches the
// sampler, fills the resources its Hyperband pruner leaves out, and is
// fixed: a file with another one, or none, does not resume it.
func TestFidelityStudy(t *testing.T) {
	store := storage.NewMemory()
	f := &Fidelity{Name: "epochs", Min: 1, Max: 50}
	spec := Spec{Name: "mf", Space: testSpace(t), Sampler: "random", Fidelity: f, Pruner: pruner.Spec{Type: "hyperband"}}
	if _, err := Create(bg, store, spec); err != nil {
		t.Fatal(err)
	}
	s, err := Open(bg, store, "mf")
	if err != nil {
		t.Fatal(err)
	}
	if *s.Fidelity() != *f {
		t.Errorf("fidelity %+v, want %+v", s.Fidelity(), f)
	}
	if p := s.PrunerSpec(); p.MinResource == nil || *p.MinResource != 1 || p.MaxResource == nil || *p.MaxResource != 50 {
		t.Errorf("pruner %s, want min_resource 1 and max_resource 50 from the fidelity", p)
	}
	if h, err := s.History(bg); err != nil || h.Fidelity == nil || *h.Fidelity != *f {
		t.Errorf("history's fidelity %+v, %v", h.Fidelity, err)
	}
	if err := s.CheckResume(spec, "memory:"); err != nil {
		t.Errorf("resume with the same file: %v", err)
	}
	other := spec
	other.Fidelity = &Fidelity{Name: "epochs", Min: 1, Max: 200}
	if err := s.CheckResume(other, "memory:"); err == nil || !strings.Contains(err.Error(), "has fidelity epochs from 1 to 50, the file says epochs from 1 to 200") {
		t.Errorf("resume with another fidelity: %v", err)
	}
	if _, err := Create(bg, store, Spec{Name: "bad", Space: testSpace(t), Fidelity: &Fidelity{Name: "x", Min: 1, Max: 2}}); err == nil || !strings.Contains(err.Error(), `fidelity: name "x" is a parameter's name too`) {
		t.Errorf("a fidelity named like a parameter: %v", err)
	}
}
