package constrained

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/boaopt/boa/space"
)

func TestNamesAndGet(t *testing.T) {
	want := []string{
		"alpine2_c", "branin_c", "branin_c_literal", "gramacy_c",
		"michalewicz_c", "michalewicz_c_literal", "mishra_bird_c", "mishra_bird_c_disc",
		"rosenbrock_c", "rosenbrock_c_literal", "toy1", "toy2",
	}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	for _, n := range want {
		p := mustGet(t, n)
		if p.Name() != n {
			t.Errorf("Get(%q).Name() = %q", n, p.Name())
		}
		if f, ok := p.Optimum(); !ok || math.IsNaN(f) || p.Minimizer() == nil {
			t.Errorf("%s: optimum %v, %v, minimiser %v: want all known", n, f, ok, p.Minimizer())
		}
		if p.Space().Len() != p.Dim() {
			t.Errorf("%s: space has %d parameters, Dim %d", n, p.Space().Len(), p.Dim())
		}
	}
	for alias, n := range map[string]string{
		"rosenbrock_fun_c_2": "rosenbrock_c", "test54": "gramacy_c", "Mishra_C": "mishra_bird_c",
		" mishra_c_disc ": "mishra_bird_c_disc", "gramacy": "gramacy_c", "alpine_n2_c": "alpine2_c",
	} {
		if p := mustGet(t, alias); p.Name() != n {
			t.Errorf("Get(%q).Name() = %q, want %q", alias, p.Name(), n)
		}
	}
	if _, err := Get("branin"); !errors.Is(err, ErrUnknownProblem) {
		t.Errorf("Get(branin) error %v, want ErrUnknownProblem", err)
	}
}

func TestSense(t *testing.T) {
	cases := []struct {
		s          Sense
		str        string
		lt, eq, gt bool // holds for value < limit, = limit, > limit
	}{
		{LessEq, "<=", true, true, false},
		{Less, "<", true, false, false},
		{GreaterEq, ">=", false, true, true},
		{Greater, ">", false, false, true},
	}
	for _, c := range cases {
		if c.s.String() != c.str {
			t.Errorf("String() = %q, want %q", c.s.String(), c.str)
		}
		got := [3]bool{c.s.Holds(0, 1), c.s.Holds(1, 1), c.s.Holds(2, 1)}
		if got != [3]bool{c.lt, c.eq, c.gt} {
			t.Errorf("%s: holds for <, =, > = %v, want %v", c.s, got, [3]bool{c.lt, c.eq, c.gt})
		}
		if c.s.Holds(math.NaN(), 1) {
			t.Errorf("%s holds for NaN", c.s)
		}
	}
	if got := (Constraint{"disc", 3, 25, Less}).String(); got != "disc = 3 < 25" {
		t.Errorf("Constraint.String() = %q", got)
	}
}

// Eval computes the objective everywhere; Loss withholds it where the
// point is infeasible, as the optimiser must [spec §7.1].
func TestResult(t *testing.T) {
	p := mustGet(t, "mishra_bird_c")
	in, out := []float64{-5, -5}, []float64{0, 0}
	r := p.Eval(in)
	if !r.Feasible || len(r.Constraints) != 1 || r.Constraints[0] != (Constraint{"disc", 0, 25, Less}) {
		t.Errorf("Eval(%v) = %+v", in, r)
	}
	if f, ok := r.Loss(); !ok || f != r.F || f != mishraBird(in) {
		t.Errorf("Loss() = %v, %v at a feasible point, F = %v", f, ok, r.F)
	}
	r = p.Eval(out)
	if r.Feasible || r.Constraints[0].Value != 50 || r.Constraints[0].Holds() {
		t.Errorf("Eval(%v) = %+v, want infeasible with disc = 50", out, r)
	}
	if math.IsNaN(r.F) || r.F != p.Objective(out) {
		t.Errorf("F = %v at an infeasible point, want f computed", r.F)
	}
	if f, ok := r.Loss(); ok || !math.IsNaN(f) {
		t.Errorf("Loss() = %v, %v at an infeasible point, want NaN, false", f, ok)
	}
	// Branin: feasible iff c1 < 1 or c2 < 1, folded into min(c1, c2) < 1.
	b := mustGet(t, "branin_c")
	for _, x := range [][]float64{{1.0 / 3, 1.0 / 4}, {5.0 / 6, 7.0 / 8}, {0, 1}, {1, 0}} {
		c1, c2 := braninEllipses[0].at(x, false), braninEllipses[1].at(x, false)
		if got, want := b.Feasible(x), c1 < 1 || c2 < 1; got != want {
			t.Errorf("branin_c feasible at %v = %v; c1 = %g, c2 = %g", x, got, c1, c2)
		}
	}
	if !b.Feasible([]float64{1.0 / 3, 1.0 / 4}) || !b.Feasible([]float64{5.0 / 6, 7.0 / 8}) || b.Feasible([]float64{0, 1}) {
		t.Error("branin_c: the ellipses' centres must be feasible and the corner (0, 1) not")
	}
}

func TestEvaluateAssignment(t *testing.T) {
	p := mustGet(t, "gramacy_c")
	x := p.Minimizer()
	r, err := p.Evaluate(space.Assignment{"x1": x[0], "x2": x[1]})
	if err != nil || !r.Feasible || r.F != p.Objective(x) {
		t.Errorf("Evaluate at x* = %+v, %v", r, err)
	}
	if _, err := p.Evaluate(space.Assignment{"x1": 2.0, "x2": 0.5}); err == nil {
		t.Error("Evaluate outside the box: no error")
	}
	d := mustGet(t, "mishra_bird_c_disc")
	g := d.Grid()
	r, err = d.Evaluate(space.Assignment{"x1": g[0][16], "x2": g[1][18]})
	if f, _ := d.Optimum(); err != nil || r.F != f {
		t.Errorf("Evaluate at the grid optimum = %+v, %v; want F = %v", r, err, f)
	}
	if _, err := d.Evaluate(space.Assignment{"x1": -3.3, "x2": -1.625}); err == nil {
		t.Error("Evaluate off the grid: no error")
	}
}

// Discretised Mishra's Bird: 25 × 25 = 625 points over the domain
// [spec §7.1 Decision], and the stored optimum is the enumerated one.
func TestMishraDiscretised(t *testing.T) {
	d, c := mustGet(t, "mishra_bird_c_disc"), mustGet(t, "mishra_bird_c")
	g := d.Grid()
	lo, hi := d.Bounds()
	if len(g) != 2 || len(g[0])*len(g[1]) != 625 {
		t.Fatalf("grid %d × %d, want 25 × 25", len(g[0]), len(g[1]))
	}
	for i, v := range g {
		if v[0] != lo[i] || v[24] != hi[i] {
			t.Errorf("coordinate %d: grid from %v to %v, want the box [%v, %v]", i+1, v[0], v[24], lo[i], hi[i])
		}
		for k := 1; k < len(v); k++ {
			if step := (hi[i] - lo[i]) / 24; math.Abs(v[k]-v[k-1]-step) > 1e-12 {
				t.Errorf("coordinate %d: step %d is %v, want %v", i+1, k, v[k]-v[k-1], step)
			}
		}
	}
	best, nfeas := math.Inf(1), 0
	var bx []float64
	for _, a := range g[0] {
		for _, b := range g[1] {
			x := []float64{a, b}
			r := d.Eval(x)
			if r.F != c.Objective(x) || r.Feasible != c.Feasible(x) {
				t.Fatalf("at grid point %v the discretised problem differs from the continuous one", x)
			}
			if r.Feasible {
				nfeas++
				if r.F < best {
					best, bx = r.F, x
				}
			}
		}
	}
	if f, _ := d.Optimum(); best != f || !slices.Equal(bx, d.Minimizer()) {
		t.Errorf("enumeration: best %.17g at %v; stored %.17g at %v", best, bx, f, d.Minimizer())
	}
	if nfeas != 480 {
		t.Errorf("%d feasible grid points, want 480", nfeas)
	}
	// Off the grid, a point takes the value of its nearest grid point.
	if got, want := d.Objective([]float64{-3.3, -1.6}), c.Objective([]float64{g[0][16], g[1][18]}); got != want {
		t.Errorf("discretised f(−3.3, −1.6) = %v, want the grid value %v", got, want)
	}
}

// The toys: metric #2 crosses 0.8 at x = 0.5 + ln 4/12, feasible above
// [spec §7.3 Decision].
func TestToys(t *testing.T) {
	for _, name := range []string{"toy1", "toy2"} {
		t.Run(name, func(t *testing.T) {
			p := mustGet(t, name)
			if p.Dim() != 1 {
				t.Fatalf("dimension %d, want 1", p.Dim())
			}
			r := p.Eval([]float64{ToyCrossing})
			if c := r.Constraints[0]; c.Name != "metric2" || c.Sense != GreaterEq || c.Limit != 0.8 ||
				math.Abs(c.Value-0.8) > 1e-12 {
				t.Errorf("at the crossing %v: %v, want metric2 = 0.8 >= 0.8", ToyCrossing, c)
			}
			if want := 0.5 + math.Log(4)/12; math.Abs(ToyCrossing-want) > 1e-15 {
				t.Errorf("ToyCrossing = %.17g, want 0.5 + ln 4/12 = %.17g", ToyCrossing, want)
			}
			for _, c := range []struct {
				x    float64
				feas bool
			}{{0, false}, {0.5, false}, {ToyCrossing - 1e-6, false}, {ToyCrossing + 1e-6, true}, {0.8, true}, {1, true}} {
				if got := p.Feasible([]float64{c.x}); got != c.feas {
					t.Errorf("feasible at x = %v: %v, want %v", c.x, got, c.feas)
				}
			}
			checkMinimizer(t, p)
		})
	}
	// Toy 1's metric #1 decreases, so its constrained minimum is x = 1.
	if x := mustGet(t, "toy1").Minimizer(); x[0] != 1 {
		t.Errorf("toy1 minimiser %v, want 1", x)
	}
}
