package bench

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/space"
)

// curves is a synthetic multi-fidelity problem: after epoch e of 27 the
// value of x is f(x) + 1/e, f a shifted sphere in 3-D, each epoch a step;
// it counts the epochs its curves would cost.
type curves struct{ evaluated int }

func (c *curves) Name() string { return "curves" }
func (c *curves) Space() *space.Space {
	var ps []space.Param
	for _, n := range []string{"a", "b", "c"} {
		ps = append(ps, space.Param{Name: n, Kind: space.Float, Low: 0, High: 1})
	}
	return space.MustNew(ps...)
}
func (c *curves) Steps() []int64 {
	var s []int64
	for e := int64(1); e <= 27; e++ {
		s = append(s, e)
	}
	return s
}
func (c *curves) Curve(a space.Assignment, _ *rand.Rand) ([]float64, error) {
	c.evaluated++
	f := 0.0
	for _, n := range []string{"a", "b", "c"} { // in order: a map's would change the rounding
		f += (a[n].(float64) - 0.3) * (a[n].(float64) - 0.3)
	}
	var out []float64
	for e := 1; e <= 27; e++ {
		out = append(out, f+1/float64(e)-1.0/27)
	}
	return out, nil
}
func (c *curves) Optimum() (float64, bool) { return 0, true }

// TestRunFidelity: every run spends the budget (one trace entry per
// epoch), full-fidelity gpbo completes budget/27 trials, the pruned
// methods start many more, and runs on two workers are deterministic.
func TestRunFidelity(t *testing.T) {
	const budget = 27 * 6
	p := &curves{}
	cfg := FidelityConfig{Problems: []FidelityProblem{p}, Methods: []string{"gpbo", "random@asha", "random"}, Seeds: 1, Budget: budget, Parallel: 1}
	runs, err := RunFidelity(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Sampler, r.Error)
		}
		if len(r.Best) != budget {
			t.Errorf("%s: trace of %d epochs, want %d", r.Sampler, len(r.Best), budget)
		}
		if last := r.Best[len(r.Best)-1]; last != float64(r.FinalBest) {
			t.Errorf("%s: the trace ends at %v, the final best is %v", r.Sampler, last, r.FinalBest)
		}
		if r.Regret == nil || *r.Regret < 0 {
			t.Errorf("%s: regret %v", r.Sampler, r.Regret)
		}
	}
	if n := len(runs[0].SuggestSeconds); n != 7 { // six complete, the seventh cut by the budget
		t.Errorf("gpbo asked %d trials in %d epochs, want 7", n, budget)
	}
	for _, r := range runs[1:] {
		if n := len(r.SuggestSeconds); n < 15 {
			t.Errorf("%s asked only %d trials in %d epochs", r.Sampler, n, budget)
		}
	}
	cfg.Workers, cfg.Methods = 2, []string{"random@asha"}
	a, err := RunFidelity(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := RunFidelity(context.Background(), cfg, nil)
	if a[0].Error != "" || !slices.Equal(a[0].Best, b[0].Best) || a[0].Workers != 2 {
		t.Errorf("two runs on 2 workers differ or failed: %v", a[0].Error)
	}
}

// TestParseMethod: the default pruners, an explicit one, and refusals.
func TestParseMethod(t *testing.T) {
	for name, want := range map[string]string{"mobster": PruneASHA, "bohb": PruneHyperband, "random": PruneHyperband, "gpbo": PruneNone, "gpbo@asha": PruneASHA, "mobster+estimator=tse@none": PruneNone} {
		if _, got, err := ParseMethod(name); err != nil || got != want {
			t.Errorf("%s: pruner %q, %v; want %q", name, got, err, want)
		}
	}
	for _, bad := range []string{"gpbo@median", "optuna-tpe", "optuna-tpe-hb@asha", "nosuch"} {
		if _, _, err := ParseMethod(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestNB201MF: the two fidelities of a cell are its 12-epoch test error
// and one run's validation error, and a run scores its test regret.
func TestNB201MF(t *testing.T) {
	p, err := ParseFidelityProblem("nb201-mf:cifar10")
	if errors.Is(err, problems.ErrNoData) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "nb201-mf-cifar10" || !slices.Equal(p.Steps(), []int64{12, 200}) {
		t.Errorf("name %s, steps %v", p.Name(), p.Steps())
	}
	rng := rand.New(rand.NewPCG(1, 2))
	a := p.Space().Decode(p.Space().Sample(rng))
	c, err := p.Curve(a, rng)
	if err != nil || len(c) != 2 || !(c[0] > 0 && c[0] < 100 && c[1] > 0 && c[1] < 100) {
		t.Fatalf("curve %v, %v", c, err)
	}
	runs, err := RunFidelity(context.Background(), FidelityConfig{Problems: []FidelityProblem{p}, Methods: []string{"random"}, Seeds: 1, Budget: 1000}, nil)
	if err != nil || runs[0].Error != "" {
		t.Fatalf("%v %s", err, runs[0].Error)
	}
	if r := runs[0].TestRegret; r == nil || *r < 0 || math.IsNaN(*r) {
		t.Errorf("test regret %v", r)
	}
}

// TestLCBenchMF: an LCBench task reports epochs 1..51 and ends at 52, its
// curve is the validation error, and its reference optimum, the best of
// 2,000 random configurations, is no worse than one more random one.
func TestLCBenchMF(t *testing.T) {
	p, err := ParseFidelityProblem("lcbench:3945")
	if errors.Is(err, problems.ErrNoData) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	steps := p.Steps()
	if len(steps) != 52 || steps[0] != 1 || steps[51] != 52 {
		t.Errorf("steps %v, want 1..52", steps)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	c, err := p.Curve(p.Space().Decode(p.Space().Sample(rng)), rng)
	if err != nil || len(c) != 52 {
		t.Fatalf("curve of %d values, %v", len(c), err)
	}
	opt, ok := p.Optimum()
	if !ok || !(opt >= 0 && opt <= c[51]) {
		t.Errorf("optimum %v, %v", opt, ok)
	}
	if _, err := ParseFidelityProblem("lcbench:nosuch"); err == nil {
		t.Error("an unknown task was accepted")
	}
}
