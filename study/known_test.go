package study

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// ramOf is the RAM a configuration of testSpace needs, known before it is
// evaluated: 100 KB a layer, so that n ≤ 2 meets limits()' 256 KB; the
// tanh networks cannot be estimated (NaN).
func ramOf(a space.Assignment) map[string]float64 {
	if a["act"] == "tanh" {
		return map[string]float64{"ram_kb": math.NaN()}
	}
	return map[string]float64{"ram_kb": 100 * float64(a["n"].(int)), "unlimited": 1}
}

// TestKnownMetricsScreenAndFillIn: a study that knows a constrained metric
// before evaluation (SetKnown) asks only for configurations within its
// limit, those whose metric can be computed, in its design and from its
// model, and records the known value with a trial that did not report
// it; a value the trial reports wins. The sampler models the other limits
// only. On a real SQLite file.
func TestKnownMetricsScreenAndFillIn(t *testing.T) {
	for _, name := range []string{"random", "gpbo", "svmcbo-rf"} {
		store, err := storage.OpenSQLite(bg, filepath.Join(t.TempDir(), "boa.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		s, err := Create(bg, store, Spec{Name: "k", Space: testSpace(t), Sampler: name, Seed: 4, Budget: 12, Constraints: limits()})
		if err != nil {
			t.Fatal(err)
		}
		s.SetKnown(ramOf)
		err = s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
			tr.Metrics = map[string]float64{"acc": 0.9}
			return tr.Float("x") * tr.Float("x"), nil
		}, 12, OptimizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		trials, err := s.Trials(bg)
		if err != nil || len(trials) != 12 {
			t.Fatalf("%s: %d trials, %v", name, len(trials), err)
		}
		for _, tr := range trials {
			n := tr.Int("n")
			if n > 2 || tr.String("act") != "relu" {
				t.Errorf("%s: trial %d has n = %d, act = %s: not admissible", name, tr.Number, n, tr.String("act"))
			}
			if tr.Metrics["ram_kb"] != 100*float64(n) || tr.Metrics["acc"] != 0.9 || tr.Metrics["unlimited"] != 1 {
				t.Errorf("%s: trial %d records metrics %v; want ram_kb = %d known, acc reported, unlimited known", name, tr.Number, tr.Metrics, 100*n)
			}
			if tr.Feasible == nil || !*tr.Feasible {
				t.Errorf("%s: trial %d is not feasible: %s", name, tr.Number, tr.Reason)
			}
		}
		// The sampler models the limit it does not know, acc, only.
		h, err := s.History(bg)
		if err != nil || !slices.Equal(h.Constraints, []string{"acc"}) || len(h.Observed[0].Slack) != 1 || h.Admissible == nil {
			t.Errorf("%s: the sampler sees constraints %v, slacks %v, %v", name, h.Constraints, h.Observed[0].Slack, err)
		}
	}
	// A reported value wins over the known one.
	s, _ := constrainedStudy(t)
	s.SetKnown(ramOf)
	tellAll(t, s, []Result{{Value: 1, Metrics: map[string]float64{"acc": 0.9, "ram_kb": 300}}})
	trials, err := s.Trials(bg)
	if err != nil || len(trials) != 1 || trials[0].Metrics["ram_kb"] != 300 || trials[0].Feasible == nil || *trials[0].Feasible {
		t.Errorf("a trial reporting ram_kb = 300: %+v, %v; want it recorded and infeasible", trials, err)
	}
}
