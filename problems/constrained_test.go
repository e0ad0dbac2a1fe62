package problems

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/problems/gkls"
	"github.com/boaopt/boa/space"
)

// TestConstrainedOptima: every registered constrained problem's stated
// minimiser is feasible under its Constraints and gives its Optimum; the
// limits are valid and Metrics names them.
func TestConstrainedOptima(t *testing.T) {
	names := constrained.Names()
	for _, class := range []string{"simple", "hard"} {
		for dim := 2; dim <= 5; dim++ {
			names = append(names, "gkls-c:"+string(rune('0'+dim))+":"+class+":7")
		}
	}
	for _, name := range names {
		p, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := p.(*constrainedProblem)
		if !ok {
			t.Fatalf("%s: %T is not a constrained problem", name, p)
		}
		if err := c.Constraints().Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got := Metrics(name); !slices.Equal(got, c.Constraints().Names()) || len(got) == 0 {
			t.Errorf("Metrics(%s) = %v, the constraints %v", name, got, c.Constraints().Names())
		}
		var x []float64
		if strings.HasPrefix(name, GKLSStandinPrefix) {
			parts := strings.Split(name, ":")
			params, _ := gkls.Class(int(parts[1][0]-'0'), parts[2])
			g, _ := gkls.New(params, 7)
			x = g.Minimizer()
		} else {
			q, _ := constrained.Get(name)
			x = q.Minimizer()
		}
		a := space.Assignment{}
		for i, n := range p.Space().Names() {
			a[n] = x[i]
		}
		v, m, err := c.Measure(a, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt, ok := p.Optimum()
		if !ok || math.Abs(v-opt) > 1e-9 {
			t.Errorf("%s: f(x*) = %v, Optimum %v, %v", name, v, opt, ok)
		}
		if verdict := c.Constraints().Check(m); !verdict.Feasible {
			t.Errorf("%s: x* = %v infeasible: %s", name, x, verdict.Reason)
		}
		if f, _ := p.Evaluate(a, nil); f != v {
			t.Errorf("%s: Evaluate %v, Measure %v", name, f, v)
		}
	}
}

// The senses of problems/constrained become limits: "<" and "≤" a Max,
// ">" and "≥" a Min.
func TestConstrainedLimits(t *testing.T) {
	for name, want := range map[string]string{
		"branin_c": "min(c1,c2) <= 1", "gramacy_c": "disc >= 0", "toy1": "metric2 >= 0.8",
		"michalewicz_c_literal": "x1^3+x2^3 >= 15", "rosenbrock_c": "line <= 0",
	} {
		p, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		metric, limit, _ := strings.Cut(want, " ")
		if got := p.(*constrainedProblem).Constraints()[metric].String(); got != limit {
			t.Errorf("%s: %s %s, want %s", name, metric, got, limit)
		}
	}
}

func TestConstrainedNames(t *testing.T) {
	for _, name := range []string{"branin_c", "gkls-c:2:simple:1"} {
		p, err := Named(name, 0)
		if _, ok := p.(interface{ Constraints() constraint.Set }); err != nil || !ok {
			t.Errorf("Named(%s) = %v, %v, want a problem with its constraints", name, p, err)
		}
	}
	// A study file's objective.function: the space's parameters in order
	// are the problem's, and the metrics come with the value.
	sp := space.MustNew(space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1})
	f, err := FunctionOf("branin_c", sp)
	if err != nil {
		t.Fatal(err)
	}
	v, m := f(space.Assignment{"a": 0.543, "b": 0.151})
	if math.Abs(v-(-1.0474)) > 1e-3 || m["min(c1,c2)"] > 1 {
		t.Errorf("branin_c at its minimiser: %v, %v", v, m)
	}
	if _, err := FunctionOf("branin_c", space.MustNew(space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1})); err == nil || !strings.Contains(err.Error(), "takes 2 parameters") {
		t.Errorf("FunctionOf(branin_c) on one parameter: %v", err)
	}
	if p, err := Named("gkls:3:hard:2", 0); err != nil || p.Space().Len() != 3 {
		t.Errorf("Named(gkls:3:hard:2) = %v, %v", p, err)
	}
	for _, bad := range []string{"gkls:6:simple:1", "gkls:2:easy:1", "gkls:2:simple:0", "gkls-c:2:simple", "gkls:x:simple:1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%s): no error", bad)
		}
	}
	if m := Metrics("branin"); m != nil {
		t.Errorf("Metrics(branin) = %v, want nil", m)
	}
	if m := Metrics("nb201-latency:fpga:4"); !slices.Equal(m, []string{"latency_ms"}) {
		t.Errorf("Metrics(nb201-latency:...) = %v", m)
	}
}

// TestLatencyProblems: for every device of the latency file, the problem
// with the limit at the median latency has a feasible optimum whose value
// is the enumerated one and a test regret of its own ≥ 0.
func TestLatencyProblems(t *testing.T) {
	if _, err := dataDir("nb201-latency/latency.csv", "nb201/cifar100.csv"); errors.Is(err, ErrNoData) {
		t.Skipf("needs ../shared/data: %v", err)
	}
	if _, err := Parse("nb201-latency:nosuchdevice:10"); err == nil || !strings.Contains(err.Error(), "pixel2") {
		t.Errorf("an unknown device: %v, want the devices listed", err)
	}
	latencyData.Lock()
	d := latencyData.d
	latencyData.Unlock()
	for _, dev := range d.Devices() {
		probe, err := d.Problem(dev, 1e9, constrained.Coupled)
		if err != nil {
			t.Fatal(err)
		}
		lats := make([]float64, 0, 15625)
		for k := range 15625 {
			a, _, _ := d.Cell(k)
			r, _ := probe.Evaluate(a)
			lats = append(lats, r.Constraints[0].Value)
		}
		slices.Sort(lats)
		name := "nb201-latency:" + dev + ":" + strconv.FormatFloat(lats[len(lats)/2], 'g', -1, 64)
		p, err := Parse(name)
		if err != nil {
			t.Fatal(err)
		}
		lp := p.(*latencyProblem)
		opt := lp.lp.Optimum()
		v, m, err := lp.Measure(opt.Cell, nil)
		if err != nil || !lp.Constraints().Check(m).Feasible || v != opt.Objective {
			t.Errorf("%s: the optimum cell gives %v, %v (%v); want feasible with %v", name, v, m, err, opt.Objective)
		}
		if f, _ := p.Optimum(); f != opt.Objective {
			t.Errorf("%s: Optimum %v, enumerated %v", name, f, opt.Objective)
		}
		if tr, ok := lp.TestRegret(opt.Cell); !ok || tr < 0 {
			t.Errorf("%s: test regret of the optimum %v, %v", name, tr, ok)
		}
	}
}
