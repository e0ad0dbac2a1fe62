package uncertain

import (
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// fake builds Results whose every seed of (cell, model) has the score
// s(cell, model, seed).
func fake(cells []Cell, models []string, seeds int, s func(Cell, string, int) Score) *Results {
	r := &Results{Cells: cells, Models: models, Seeds: seq(seeds), Scores: map[Cell]map[string][]Score{}}
	for _, c := range cells {
		r.Scores[c] = map[string][]Score{}
		for _, m := range models {
			for i := range seeds {
				r.Scores[c][m] = append(r.Scores[c][m], s(c, m, i))
			}
		}
	}
	return r
}

// The four table lines of §8.6 on results made to meet them, then each
// broken in turn.
func TestAcceptance(t *testing.T) {
	cells := []Cell{{"ackley-2d", 0.05, 50, 50}, {"ackley-4d", 0.1, 100, 50}, {"decaying-sin", 0.05, 50, 50}, {"michalewicz-2d", 0.1, 50, 50}}
	good := func(c Cell, m string, seed int) Score {
		s := Score{LL: 100, SqErr: 1, MeanVar: 1e-3}
		if m == "utgp" {
			s.LL, s.MeanVar, s.SqErr = 120, 5e-3, 1.1
		}
		if m == "randfunc" && c.Task == "decaying-sin" {
			s.LL = -5e4
		}
		return s
	}
	models := Models
	for i, ch := range Acceptance(fake(cells, models, 3, good), false) {
		if !ch.Evaluated || !ch.Met {
			t.Errorf("line %d: %s", i, ch)
		}
	}
	for i, broken := range []func(Cell, string, int) Score{
		func(c Cell, m string, s int) Score { // a stable model's catastrophe
			x := good(c, m, s)
			if m == "analytic" && c.Task == "michalewicz-2d" {
				x.LL = -2e4
			}
			return x
		},
		func(c Cell, m string, s int) Score { // RQ wins every ackley cell
			x := good(c, m, s)
			if m == "rq" {
				x.LL = 200
			}
			return x
		},
		func(c Cell, m string, s int) Score { // no inflation
			x := good(c, m, s)
			if m == "utgp" {
				x.MeanVar = 1e-4
			}
			return x
		},
		func(c Cell, m string, s int) Score { // a 30 % squared-error gap
			x := good(c, m, s)
			if m == "rbf" && c.Task == "ackley-4d" {
				x.SqErr = 1.5
			}
			return x
		},
	} {
		chs := Acceptance(fake(cells, models, 3, broken), false)
		if chs[i].Met {
			t.Errorf("line %d met on results made to break it: %s", i, chs[i])
		}
	}
	// Without the models a line needs, it is not evaluated.
	chs := Acceptance(fake(cells, []string{"rbf"}, 2, good), false)
	if chs[0].Evaluated || chs[1].Evaluated || chs[2].Evaluated {
		t.Errorf("judged without the models: %v", chs)
	}
}

// The 1-D ordering: met with the thesis's values plus seed noise, not met
// when UTGP beats RandFunc by far.
func TestAcceptance1D(t *testing.T) {
	cells := []Cell{{"decaying-sin", 0.05, 30, 30}, {"decaying-sin", 0.1, 30, 30}}
	ll := func(c Cell, m string, seed int) Score {
		v := Published1D[c.SigmaX][m] + 3*math.Sin(float64(seed))
		return Score{LL: v}
	}
	if ch := Acceptance1D(fake(cells, Models, 5, ll), false); !ch.Met {
		t.Error(ch)
	}
	bad := func(c Cell, m string, seed int) Score {
		s := ll(c, m, seed)
		if m == "utgp" {
			s.LL += 20
		}
		return s
	}
	if ch := Acceptance1D(fake(cells, Models, 5, bad), false); ch.Met || !strings.Contains(ch.Detail, "randfunc<utgp") {
		t.Error(ch)
	}
}

// Save and Load round-trip, failed fits (NaN) included, and Load merges
// two task groups.
func TestSaveLoad(t *testing.T) {
	a := fake([]Cell{{"ackley-2d", 0.05, 50, 50}}, []string{"rbf", "nigp"}, 2, func(c Cell, m string, s int) Score {
		if m == "nigp" && s == 1 {
			return Score{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), 0.5, "not positive definite", 0, 3}
		}
		return Score{LL: float64(s), SqErr: 0.25, Seconds: 0.1}
	})
	b := fake([]Cell{{"decaying-sin", 0.1, 100, 50}}, []string{"rbf", "nigp"}, 2, func(Cell, string, int) Score { return Score{LL: 7} })
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := a.Save(pa); err != nil {
		t.Fatal(err)
	}
	if err := b.Save(pb); err != nil {
		t.Fatal(err)
	}
	r, err := Load(pa, pb)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 2 || len(r.Models) != 2 || len(r.Seeds) != 2 {
		t.Fatalf("merged %d cells, %d models, %d seeds", len(r.Cells), len(r.Models), len(r.Seeds))
	}
	if s := r.Stat(a.Cells[0], "nigp", MetricLL); s.Failed != 1 || s.Mean != 0 {
		t.Errorf("nigp %+v", s)
	}
	if got := r.Scores[a.Cells[0]]["nigp"][1]; got.Err != "not positive definite" || got.CholFail != 3 {
		t.Errorf("Err %q, CholFail %d", got.Err, got.CholFail)
	}
	// One failed fit and none below −10⁴ in the merged results.
	if got := r.Catastrophes(false); !strings.Contains(got, "| NIGP | 0 | 1 | 0 | 4, 2 | 0 | 1 |") {
		t.Errorf("Catastrophes:\n%s", got)
	}
	if s := r.Stat(b.Cells[0], "rbf", MetricLL); s.Mean != 7 {
		t.Errorf("rbf %+v", s)
	}
}
