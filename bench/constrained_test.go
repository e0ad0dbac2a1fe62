package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/boaopt/boa/problems"
)

// TestConstrainedBench: on constrained problems random and smac-like
// report a feasible regret ≥ 0 computed from feasible evaluations only,
// a feasible share in [0, 1], and the JSON fields of docs/benchmarks.md.
func TestConstrainedBench(t *testing.T) {
	var ps []problems.Problem
	for _, name := range []string{"mishra_bird_c", "gkls-c:2:hard:1"} {
		p, err := problems.Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	cfg := Config{Problems: ps, Samplers: []string{"random", "smac-like"}, Seeds: 2, Budget: 25}
	runs, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Error != "" || r.FeasibleShare == nil || *r.FeasibleShare < 0 || *r.FeasibleShare > 1 {
			t.Fatalf("%s %s seed %d: error %q, feasible share %v", r.Problem, r.Sampler, r.Seed, r.Error, r.FeasibleShare)
		}
		if math.IsInf(float64(r.FinalBest), 1) {
			if r.Regret != nil || *r.FeasibleShare != 0 {
				t.Errorf("%s %s: no feasible point, yet regret %v and share %v", r.Problem, r.Sampler, r.Regret, *r.FeasibleShare)
			}
			continue
		}
		if r.Regret == nil || *r.Regret < 0 {
			t.Errorf("%s %s seed %d: feasible regret %v", r.Problem, r.Sampler, r.Seed, r.Regret)
		}
		if *r.FeasibleShare == 0 {
			t.Errorf("%s %s: a final best %v without a feasible evaluation", r.Problem, r.Sampler, r.FinalBest)
		}
	}
	var buf bytes.Buffer
	if err := NewReport(runs).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Results []map[string]any `json:"results"`
		Summary []map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(buf.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	for _, r := range out.Results {
		if _, ok := r["feasible_share"].(float64); !ok {
			t.Errorf("result without feasible_share: %v", r)
		}
	}
	for _, s := range out.Summary {
		if sh, ok := s["feasible_share"].(float64); !ok || sh < 0 || sh > 1 {
			t.Errorf("summary feasible_share %v", s["feasible_share"])
		}
	}
}

// TestFeasibleRegretCountsFeasibleOnly: the trace follows the feasible
// evaluations alone, although Gramacy's x₁ + x₂ goes below the constrained
// optimum outside the feasible set: +Inf (null) before the first feasible
// point.
func TestFeasibleRegretCountsFeasibleOnly(t *testing.T) {
	p, err := problems.Parse("gramacy_c")
	if err != nil {
		t.Fatal(err)
	}
	c := p.(Constrained)
	r := &running{RunResult: &RunResult{}, p: p, cons: c, limits: c.Constraints()}
	in := map[string]any{"x1": 0.19512268374779768, "x2": 0.40466536826326993} // x*
	out := map[string]any{"x1": 0.0, "x2": 0.0}                                // infeasible, f = 0
	for _, a := range []map[string]any{out, in, out} {
		v, m, err := r.evaluate(a)
		if err != nil {
			t.Fatal(err)
		}
		r.record(a, v, m)
	}
	vOut, _, _ := r.evaluate(out)
	opt, _ := p.Optimum()
	if !(vOut < opt) {
		t.Fatalf("the infeasible point's objective %v is not below the optimum %v; pick another", vOut, opt)
	}
	if !math.IsInf(r.Best[0], 1) || math.Abs(r.Best[1]-opt) > 1e-9 || r.Best[2] != r.Best[1] || r.feasible != 1 {
		t.Errorf("trace %v with %d feasible; want +Inf, then %v twice, 1 feasible", r.Best, r.feasible, opt)
	}
	b, err := json.Marshal(r.Best)
	if err != nil || string(b[:5]) != "[null" {
		t.Errorf("JSON trace %s, %v; want null first", b, err)
	}
}

// TestDecoupledLatencyBench: in nb201-latency's decoupled mode boa's
// studies know each cell's latency before evaluating it (Prescreened), so
// every evaluation of random, gpbo and svmcbo-rf is feasible; in the
// coupled mode random search's are feasible about as often as the limit
// allows (27 % of the cells under gold_6226 ≤ 8 ms).
func TestDecoupledLatencyBench(t *testing.T) {
	var ps []problems.Problem
	for _, name := range []string{"nb201-latency:gold_6226:8:decoupled", "nb201-latency:gold_6226:8"} {
		p, err := problems.Parse(name)
		if errors.Is(err, problems.ErrNoData) {
			t.Skipf("needs ../shared/data (nb201, nb201-latency): %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	runs, err := Run(context.Background(), Config{Problems: ps, Samplers: []string{"random", "gpbo", "svmcbo-rf"}, Seeds: 1, Budget: 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Error != "" || r.FeasibleShare == nil {
			t.Fatalf("%s %s: error %q, feasible share %v", r.Problem, r.Sampler, r.Error, r.FeasibleShare)
		}
		decoupled := strings.HasSuffix(r.Problem, ":decoupled")
		if share := *r.FeasibleShare; decoupled && share != 1 || !decoupled && r.Sampler == "random" && share == 1 {
			t.Errorf("%s %s: feasible share %v", r.Problem, r.Sampler, share)
		}
	}
}
