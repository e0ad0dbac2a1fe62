package study

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/storage"
)

func limits() constraint.Set {
	max, min := 256.0, 0.8
	return constraint.Set{"ram_kb": {Max: &max}, "acc": {Min: &min}}
}

// constrainedStudy is a study with limits() on a real SQLite file.
func constrainedStudy(t *testing.T) (*Study, storage.Storage) {
	t.Helper()
	store, err := storage.OpenSQLite(bg, filepath.Join(t.TempDir(), "boa.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := Create(bg, store, Spec{Name: "c", Space: testSpace(t), Sampler: "random", Seed: 1, Constraints: limits()})
	if err != nil {
		t.Fatal(err)
	}
	return s, store
}

// tellAll asks one trial per result and tells it.
func tellAll(t *testing.T, s *Study, results []Result) {
	t.Helper()
	for _, r := range results {
		tr, err := s.Ask(bg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Tell(bg, tr.ID, r); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTellJudgesConstraints: a computable trial is judged by its raw
// metrics (a NaN one is infeasible with its reason, not dropped unseen);
// a crash or a NaN objective is FAILED, not infeasible; a pruned trial is
// not judged. Best is the best feasible trial, and the sampler sees the
// slacks and the verdicts [spec constrained-autotinyml §1].
func TestTellJudgesConstraints(t *testing.T) {
	s, store := constrainedStudy(t)
	m := func(ram, acc float64) map[string]float64 { return map[string]float64{"ram_kb": ram, "acc": acc} }
	tellAll(t, s, []Result{
		{Value: 1, Metrics: m(100, 0.9)},                         // 0 feasible
		{Value: 0.5, Metrics: m(300, 0.9)},                       // 1 over the RAM limit
		{Value: 0.1, Metrics: m(100, math.NaN())},                // 2 acc is NaN
		{Value: 0.2, Metrics: map[string]float64{"acc": 0.95}},   // 3 ram_kb not reported
		{Err: errors.New("out of memory"), Metrics: m(100, 0.9)}, // 4 not computable
		{Value: math.NaN(), Metrics: m(100, 0.9)},                // 5 not computable
		{Value: 0, Pruned: true, Metrics: m(100, 0.9)},           // 6 not judged
		{Value: 2, Metrics: m(256, 0.8)},                         // 7 feasible, on both limits
	})
	trials, err := s.Trials(bg)
	if err != nil {
		t.Fatal(err)
	}
	yes, no := true, false
	want := []struct {
		state    State
		feasible *bool
		reason   string
	}{
		{Complete, &yes, ""},
		{Complete, &no, "infeasible: ram_kb = 300, want <= 256"},
		{Complete, &no, "infeasible: acc is NaN"},
		{Complete, &no, "infeasible: ram_kb not reported"},
		{Failed, nil, "out of memory"},
		{Failed, nil, "objective returned NaN"},
		{Pruned, nil, ""},
		{Complete, &yes, ""},
	}
	for i, w := range want {
		tr := trials[i]
		if tr.State != w.state || show(tr.Feasible) != show(w.feasible) || tr.Reason != w.reason {
			t.Errorf("trial %d: %v, feasible %v, reason %q; want %v, %v, %q", i, tr.State, show(tr.Feasible), tr.Reason, w.state, show(w.feasible), w.reason)
		}
	}
	best, ok, err := s.Best(bg)
	if err != nil || !ok || best.Number != 0 {
		t.Errorf("Best = trial %d, %v, %v; want trial 0, the best feasible one (1, 2 and 3 have lower values but are infeasible)", best.Number, ok, err)
	}
	sum, err := s.Summary(bg)
	if err != nil || sum.Feasible != 2 || sum.Infeasible != 3 || sum.Best != 0 {
		t.Errorf("Summary = %+v, %v; want 2 feasible, 3 infeasible, best 0", sum, err)
	}

	h, err := s.History(bg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(h.Constraints, ",") != "acc,ram_kb" || len(h.Observed) != 5 || len(h.Failed) != 2 || len(h.Pruned) != 1 {
		t.Fatalf("History: constraints %v, %d observed, %d failed, %d pruned; want acc,ram_kb, 5, 2, 1", h.Constraints, len(h.Observed), len(h.Failed), len(h.Pruned))
	}
	slack := [][2]float64{{-0.1, -156}, {-0.1, 44}, {math.NaN(), -156}, {-0.15, math.NaN()}, {0, 0}}
	for i, o := range h.Observed {
		wantInfeasible := i >= 1 && i <= 3
		if o.Infeasible != wantInfeasible || len(o.Slack) != 2 || !near(o.Slack[0], slack[i][0]) || !near(o.Slack[1], slack[i][1]) {
			t.Errorf("observation %d: slack %v, infeasible %v; want %v, %v", i, o.Slack, o.Infeasible, slack[i], wantInfeasible)
		}
	}
	if f := h.Feasible(); len(f) != 2 {
		t.Errorf("History.Feasible() has %d observations, want 2", len(f))
	}

	// Open reads the constraints back from the storage.
	again, err := Open(bg, store, "c")
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Constraints().String(); got != "acc >= 0.8, ram_kb <= 256" {
		t.Errorf("reopened constraints %q", got)
	}
	if err := again.CheckResume(Spec{Space: testSpace(t), Constraints: limits()}, "sqlite"); err != nil {
		t.Errorf("resume with the same constraints: %v", err)
	}
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) < 1e-9
}

func show(b *bool) string {
	if b == nil {
		return "not judged"
	}
	if *b {
		return "feasible"
	}
	return "infeasible"
}

// TestNoFeasibleTrialYet: with every completed trial infeasible there is
// no best, and the summary says why.
func TestNoFeasibleTrialYet(t *testing.T) {
	s, _ := constrainedStudy(t)
	tellAll(t, s, []Result{{Value: 1, Metrics: map[string]float64{"ram_kb": 300, "acc": 0.9}}, {Value: 2}, {Err: errors.New("boom")}})
	if _, ok, err := s.Best(bg); ok || err != nil {
		t.Errorf("Best: ok %v, %v; want no best trial", ok, err)
	}
	sum, _ := s.Summary(bg)
	if got := sum.NoBest(); got != "no feasible trial yet: 2 complete, all infeasible" {
		t.Errorf("NoBest = %q", got)
	}
	if got := (Summary{Best: -1}).NoBest(); got != "no COMPLETE trial yet" {
		t.Errorf("NoBest of an empty study = %q", got)
	}
}

// TestUnconstrainedTrialsAreNotJudged: without constraints nothing is
// judged and the history has no slacks.
func TestUnconstrainedTrialsAreNotJudged(t *testing.T) {
	s, err := New(testSpace(t), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tellAll(t, s, []Result{{Value: 1, Metrics: map[string]float64{"ram_kb": 1e9}}})
	trials, _ := s.Trials(bg)
	h, _ := s.History(bg)
	if trials[0].Feasible != nil || trials[0].Reason != "" || h.Constraints != nil || h.Observed[0].Slack != nil || h.Observed[0].Infeasible {
		t.Errorf("unconstrained: trial %+v, history constraints %v, observation %+v", trials[0], h.Constraints, h.Observed[0])
	}
}

// TestBadConstraintsAreRefused: Create and New refuse constraints no
// value can meet, naming the metric.
func TestBadConstraintsAreRefused(t *testing.T) {
	lo, hi := 3.0, 1.0
	bad := constraint.Set{"ram_kb": {Min: &lo, Max: &hi}}
	if _, err := Create(bg, storage.NewMemory(), Spec{Name: "b", Space: testSpace(t), Constraints: bad}); err == nil || !strings.Contains(err.Error(), "ram_kb: min 3 is greater than max 1") {
		t.Errorf("Create = %v", err)
	}
	if _, err := New(testSpace(t), Options{Constraints: constraint.Set{"acc": {}}}); err == nil || !strings.Contains(err.Error(), "acc: give min, max or both") {
		t.Errorf("New = %v", err)
	}
}
