package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/problems"
)

// multiProblems are small multi-objective problems whose random points
// often fall inside the reference box: DTLZ2 in four variables (three
// objectives) and ZDT1 in two.
func multiProblems(t *testing.T) []problems.Problem {
	t.Helper()
	var ps []problems.Problem
	for _, name := range []string{"dtlz2:4", "zdt1:2"} {
		p, err := problems.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// checkMultiRun checks one run's traces against each other: a value
// vector per evaluation, a hypervolume that never falls and never passes
// the true front's, the gap as Best, the observed front as the Pareto
// front of the values with the final hypervolume.
func checkMultiRun(t *testing.T, p problems.MultiObjective, r RunResult, budget int) {
	t.Helper()
	what := r.Problem + " " + r.Sampler
	if r.Error != "" {
		t.Fatalf("%s seed %d: %s", what, r.Seed, r.Error)
	}
	k := len(p.Objectives())
	if len(r.Values) != budget || len(r.Best) != budget || len(r.Hypervolume) != budget || len(r.SuggestSeconds) != budget || len(r.Objectives) != k {
		t.Fatalf("%s: %d values, %d gaps, %d hypervolumes, %d asks, %d objectives; want %d evaluations of %d objectives",
			what, len(r.Values), len(r.Best), len(r.Hypervolume), len(r.SuggestSeconds), len(r.Objectives), budget, k)
	}
	front := p.FrontHV()
	for i := range budget {
		if len(r.Values[i]) != k {
			t.Fatalf("%s: evaluation %d has %d values", what, i, len(r.Values[i]))
		}
		if i > 0 && r.Hypervolume[i] < r.Hypervolume[i-1] {
			t.Fatalf("%s: the hypervolume fell at evaluation %d", what, i)
		}
		if r.Hypervolume[i] > front+1e-12 || math.Abs(r.Best[i]-(front-r.Hypervolume[i])) > 1e-12 {
			t.Fatalf("%s: evaluation %d: hypervolume %v, gap %v, the front's %v", what, i, r.Hypervolume[i], r.Best[i], front)
		}
	}
	var normalised [][]float64
	for _, y := range r.Values {
		normalised = append(normalised, p.Normalise(y))
	}
	hv := pareto.Hypervolume(normalised, p.Ref())
	if r.FinalHV == nil || math.Abs(*r.FinalHV-hv) > 1e-12 || *r.FrontHV != front || math.Abs(*r.HVRatio-hv/front) > 1e-12 ||
		float64(r.FinalBest) != front-hv || *r.Regret != front-hv || math.Abs(float64(*r.LogHVGap)-math.Log10(front-hv)) > 1e-12 {
		t.Fatalf("%s: final hypervolume %v, ratio %v, gap %v, log gap %v; the values' hypervolume %v, the front's %v",
			what, r.FinalHV, r.HVRatio, r.FinalBest, r.LogHVGap, hv, front)
	}
	want := pareto.Nondominated(r.Values)
	slices.SortFunc(want, slices.Compare)
	if !reflect.DeepEqual(r.Front, want) {
		t.Fatalf("%s: front %v; the values' Pareto front is %v", what, r.Front, want)
	}
}

// TestMultiObjectiveBench runs boa's random sampler and Optuna's NSGA-II
// (when installed) on the small problems: the traces agree (checkMultiRun),
// equal seeds give equal runs, the summary has the hypervolume's medians
// and the report its table.
func TestMultiObjectiveBench(t *testing.T) {
	samplers := []string{"random"}
	if ok, note := peers.Available(peers.OptunaNSGA2); ok {
		samplers = append(samplers, peers.OptunaNSGA2)
	} else {
		t.Logf("optuna-nsga2 left out: %s", note)
	}
	ps := multiProblems(t)
	const budget = 15
	cfg := Config{Problems: ps, Samplers: samplers, Seeds: 2, Budget: budget, Parallel: 2}
	runs, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(ps)*len(samplers)*2 {
		t.Fatalf("%d runs", len(runs))
	}
	byName := map[string]problems.MultiObjective{}
	for _, p := range ps {
		byName[p.Name()] = p.(problems.MultiObjective)
	}
	for _, r := range runs {
		checkMultiRun(t, byName[r.Problem], r, budget)
	}
	again, err := Run(context.Background(), Config{Problems: ps[:1], Samplers: samplers, Seeds: 1, Budget: budget}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range again {
		i := slices.IndexFunc(runs, func(q RunResult) bool { return q.Problem == r.Problem && q.Sampler == r.Sampler && q.Seed == r.Seed })
		if !reflect.DeepEqual(r.Values, runs[i].Values) {
			t.Errorf("%s %s seed %d: a second run evaluated other configurations", r.Problem, r.Sampler, r.Seed)
		}
	}
	rep := NewReport(runs)
	if len(rep.Summary) != len(ps)*len(samplers) {
		t.Fatalf("%d summaries", len(rep.Summary))
	}
	for _, s := range rep.Summary {
		if s.MedianHV == nil || s.FrontHV == nil || s.MedianHVRatio == nil || s.MedianLogHVGap == nil || s.MedianRegret == nil {
			t.Fatalf("%s %s: summary without the hypervolume's figures: %+v", s.Problem, s.Sampler, s)
		}
		if *s.MedianHVRatio < 0 || *s.MedianHVRatio > 1 || math.Abs(*s.MedianRegret-(*s.FrontHV-*s.MedianHV)) > 1e-12 {
			t.Errorf("%s %s: median hypervolume %v, ratio %v, gap %v of the front's %v", s.Problem, s.Sampler, *s.MedianHV, *s.MedianHVRatio, *s.MedianRegret, *s.FrontHV)
		}
	}
	var md, js bytes.Buffer
	if err := rep.WriteMarkdown(&md, "test", nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## dtlz2:4", "median hypervolume gap @15", "median HV ratio", "median log10 HV gap", "Objectives f1, f2, f3"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Results []map[string]any `json:"results"`
		Summary []map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"values", "hypervolume", "final_hypervolume", "front_hypervolume", "hv_ratio", "log_hv_gap", "front", "objectives", "best"} {
		if _, ok := back.Results[0][key]; !ok {
			t.Errorf("results.json: a run lacks %q", key)
		}
	}
	for _, key := range []string{"median_hypervolume", "front_hypervolume", "median_hv_ratio", "median_log_hv_gap", "median_regret"} {
		if _, ok := back.Summary[0][key]; !ok {
			t.Errorf("results.json: a summary lacks %q", key)
		}
	}
	if _, err := rep.WritePlots(t.TempDir()); err != nil {
		t.Fatal(err)
	}
}

// TestMultiObjectiveRefuses: a single-objective peer fails its run with
// the reason, and batches and workers are refused up front.
func TestMultiObjectiveRefuses(t *testing.T) {
	ps := multiProblems(t)[:1]
	runs, err := Run(context.Background(), Config{Problems: ps, Samplers: []string{peers.GoptunaTPE}, Seeds: 1, Budget: 3}, nil)
	if err != nil || len(runs) != 1 || !strings.Contains(runs[0].Error, "optimises one objective") {
		t.Errorf("goptuna-tpe on dtlz2: %v, %+v", err, runs)
	}
	for _, cfg := range []Config{{Batch: 2}, {Workers: 2}} {
		cfg.Problems, cfg.Samplers, cfg.Seeds, cfg.Budget = ps, []string{"random"}, 1, 4
		if _, err := Run(context.Background(), cfg, nil); err == nil || !strings.Contains(err.Error(), "several objectives") {
			t.Errorf("batch %d, workers %d: %v", cfg.Batch, cfg.Workers, err)
		}
	}
}
