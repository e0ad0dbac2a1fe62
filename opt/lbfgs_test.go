package opt

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// rosenbrock is the n-D Rosenbrock function, minimum 0 at (1, …, 1).
func rosenbrock(x, grad []float64) float64 {
	f := 0.0
	for i := range grad {
		grad[i] = 0
	}
	for i := 0; i+1 < len(x); i++ {
		a, b := 1-x[i], x[i+1]-x[i]*x[i]
		f += a*a + 100*b*b
		if grad != nil {
			grad[i] += -2*a - 400*x[i]*b
			grad[i+1] += 200 * b
		}
	}
	return f
}

// quadratic returns f(x) = ½(x−c)ᵀA(x−c) with A = LLᵀ + 0.1I for a random
// lower-triangular L, an objective with coupled, differently scaled axes.
func quadratic(c []float64, rng *rand.Rand) Objective {
	n := len(c)
	A := make([][]float64, n)
	L := make([][]float64, n)
	for i := range n {
		A[i], L[i] = make([]float64, n), make([]float64, n)
		for j := 0; j <= i; j++ {
			L[i][j] = rng.NormFloat64()
		}
	}
	for i := range n {
		for j := range n {
			for k := range n {
				A[i][j] += L[i][k] * L[j][k]
			}
		}
		A[i][i] += 0.1
	}
	return func(x, grad []float64) float64 {
		f := 0.0
		for i := range n {
			ai := 0.0
			for j := range n {
				ai += A[i][j] * (x[j] - c[j])
			}
			f += 0.5 * (x[i] - c[i]) * ai
			if grad != nil {
				grad[i] = ai
			}
		}
		return f
	}
}

func fill(n int, v float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = v
	}
	return x
}

func TestBoxLBFGSRosenbrock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		x0     []float64
		lo, hi float64
	}{
		{"2-D classic start", []float64{-1.2, 1}, -2, 2},
		{"2-D wide box", []float64{3, -4}, -5, 5},
		{"10-D", fill(10, -0.5), -2, 2},
		{"10-D start outside", fill(10, 7), -3, 3},
		{"unbounded", []float64{-1.2, 1, 0.5}, math.Inf(-1), math.Inf(1)},
	} {
		n := len(tc.x0)
		r := BoxLBFGS(rosenbrock, tc.x0, fill(n, tc.lo), fill(n, tc.hi), LBFGSSettings{GradTol: 1e-9, MaxIter: 1000})
		for i, xi := range r.X {
			if math.Abs(xi-1) > 1e-6 {
				t.Errorf("%s: x[%d] = %.10g, want 1 ± 1e-6 (f = %g, %s after %d iterations)", tc.name, i, xi, r.F, r.Status, r.Iterations)
			}
		}
		// With the default settings the value is within 1e-6 of the optimum.
		r = BoxLBFGS(rosenbrock, tc.x0, fill(n, tc.lo), fill(n, tc.hi), LBFGSSettings{MaxIter: 1000})
		if r.F > 1e-6 {
			t.Errorf("%s with defaults: f = %g, want ≤ 1e-6 (%s)", tc.name, r.F, r.Status)
		}
	}
}

// TestBoxLBFGSActiveBounds checks a quadratic whose unconstrained optimum
// lies outside the box: with a diagonal Hessian the constrained optimum is
// the projection of the unconstrained one, with the active bounds exact.
func TestBoxLBFGSActiveBounds(t *testing.T) {
	c := []float64{-0.5, 0.3, 1.7, 0.9, 2.5, -3, 0.01, 0.5, 1.2, 0.6}
	w := []float64{1, 5, 0.2, 30, 1, 2, 0.5, 9, 1, 3}
	f := func(x, grad []float64) float64 {
		s := 0.0
		for i := range x {
			d := x[i] - c[i]
			s += w[i] * d * d
			if grad != nil {
				grad[i] = 2 * w[i] * d
			}
		}
		return s
	}
	for _, n := range []int{2, 10} {
		r := BoxLBFGS(f, fill(n, 0.5), fill(n, 0), fill(n, 1), LBFGSSettings{})
		for i := range n {
			want := math.Min(math.Max(c[i], 0), 1)
			if want == 0 || want == 1 {
				if r.X[i] != want {
					t.Errorf("n=%d: x[%d] = %.17g, want the bound %g exactly", n, i, r.X[i], want)
				}
			} else if math.Abs(r.X[i]-want) > 1e-6 {
				t.Errorf("n=%d: x[%d] = %.10g, want %g", n, i, r.X[i], want)
			}
		}
	}
}

// TestBoxLBFGSCoupled checks 10-D coupled quadratics with the optimum inside
// the box, against the known minimiser.
func TestBoxLBFGSCoupled(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 5 {
		c := make([]float64, 10)
		for i := range c {
			c[i] = 0.2 + 0.6*rng.Float64()
		}
		f := quadratic(c, rng)
		r := BoxLBFGS(f, fill(10, 0.5), fill(10, -5), fill(10, 5), LBFGSSettings{GradTol: 1e-10, MaxIter: 500})
		for i := range c {
			if math.Abs(r.X[i]-c[i]) > 1e-6 {
				t.Errorf("trial %d: x[%d] = %.10g, want %.10g (%s)", trial, i, r.X[i], c[i], r.Status)
			}
		}
	}
}

// TestBoxLBFGSProperties checks on random boxes, objectives and starts that
// no evaluated or returned point leaves the box and that the result is never
// worse than the projected start.
func TestBoxLBFGSProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		n := 1 + rng.IntN(8)
		lo, hi, x0, c := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			lo[i] = 10 * (rng.Float64() - 0.5)
			hi[i] = lo[i] + 3*rng.Float64()
			if rng.IntN(10) == 0 {
				hi[i] = lo[i] // a fixed coordinate
			}
			x0[i] = lo[i] + (hi[i]-lo[i])*(3*rng.Float64()-1) // often outside
			c[i] = 20 * (rng.Float64() - 0.5)
		}
		q := quadratic(c, rng)
		// A wavy term makes the objective non-convex.
		base := func(x, grad []float64) float64 {
			v := q(x, grad)
			for i := range x {
				v += 3 * math.Sin(2*x[i])
				if grad != nil {
					grad[i] += 6 * math.Cos(2*x[i])
				}
			}
			return v
		}
		outside := false
		f := func(x, grad []float64) float64 {
			for i := range x {
				if x[i] < lo[i] || x[i] > hi[i] {
					outside = true
				}
			}
			return base(x, grad)
		}
		r := BoxLBFGS(f, x0, lo, hi, LBFGSSettings{})
		if outside {
			t.Fatalf("trial %d: objective evaluated outside the box", trial)
		}
		p := make([]float64, n)
		for i := range n {
			p[i] = math.Min(math.Max(x0[i], lo[i]), hi[i])
			if r.X[i] < lo[i] || r.X[i] > hi[i] {
				t.Fatalf("trial %d: x[%d] = %g outside [%g, %g]", trial, i, r.X[i], lo[i], hi[i])
			}
		}
		if f0 := base(p, nil); r.F > f0 {
			t.Fatalf("trial %d: result %g worse than the projected start %g", trial, r.F, f0)
		}
		if got := base(r.X, nil); got != r.F {
			t.Fatalf("trial %d: Result.F = %g but f(X) = %g", trial, r.F, got)
		}
	}
}

func TestBoxLBFGSNonFinite(t *testing.T) {
	// The quadratic's minimum at x = 0.9 lies in a region where f is NaN
	// (x > 0.6) or +Inf (0.5 < x ≤ 0.6): the search must stay at x ≤ 0.5.
	f := func(x, grad []float64) float64 {
		switch {
		case x[0] > 0.6:
			return math.NaN()
		case x[0] > 0.5:
			return math.Inf(-1) // treated as +Inf as well
		}
		if grad != nil {
			grad[0] = 2 * (x[0] - 0.9)
		}
		return (x[0] - 0.9) * (x[0] - 0.9)
	}
	r := BoxLBFGS(f, []float64{0.1}, []float64{0}, []float64{1}, LBFGSSettings{})
	if !(r.X[0] <= 0.5 && r.X[0] > 0.49) || !finite(r.F) {
		t.Errorf("NaN region: x = %g, f = %g (%s); want x just below 0.5", r.X[0], r.F, r.Status)
	}
	// A NaN gradient at a finite value is rejected too.
	g := func(x, grad []float64) float64 {
		if grad != nil {
			grad[0] = 2 * (x[0] - 0.9)
			if x[0] > 0.5 {
				grad[0] = math.NaN()
			}
		}
		return (x[0] - 0.9) * (x[0] - 0.9)
	}
	if r := BoxLBFGS(g, []float64{0.1}, []float64{0}, []float64{1}, LBFGSSettings{}); r.X[0] > 0.5 {
		t.Errorf("NaN gradient: x = %g, want ≤ 0.5", r.X[0])
	}
	// Non-finite at the start: the projected start comes back.
	r = BoxLBFGS(f, []float64{3}, []float64{0}, []float64{1}, LBFGSSettings{})
	if r.X[0] != 1 || !math.IsInf(r.F, 1) || r.Status != StatusNonFinite || r.Evaluations != 1 {
		t.Errorf("non-finite start: %+v", r)
	}
	// NaN start coordinates are replaced by the midpoint.
	r = BoxLBFGS(rosenbrock, []float64{math.NaN(), 1}, []float64{-2, -2}, []float64{2, 2}, LBFGSSettings{})
	if r.F > 1e-6 {
		t.Errorf("NaN start coordinate: f = %g", r.F)
	}
}

func TestBoxLBFGSStatus(t *testing.T) {
	lo, hi := fill(2, -2), fill(2, 2)
	r := BoxLBFGS(rosenbrock, []float64{-1.2, 1}, lo, hi, LBFGSSettings{MaxIter: 3})
	if r.Status != StatusMaxIter || r.Iterations != 3 {
		t.Errorf("MaxIter 3: %d iterations, status %q", r.Iterations, r.Status)
	}
	r = BoxLBFGS(rosenbrock, []float64{1, 1}, lo, hi, LBFGSSettings{})
	if r.Status != StatusGradTol || r.Iterations != 0 || r.Evaluations != 1 {
		t.Errorf("start at the optimum: %+v", r)
	}
	r = BoxLBFGS(rosenbrock, fill(10, 7), fill(10, -3), fill(10, 3), LBFGSSettings{RelTol: 1e-2})
	if r.Status != StatusRelTol {
		t.Errorf("loose RelTol: status %q", r.Status)
	}
	// A linear objective on a box: the minimum is a vertex, reached exactly.
	lin := func(x, grad []float64) float64 {
		if grad != nil {
			grad[0], grad[1] = 1, -2
		}
		return x[0] - 2*x[1]
	}
	r = BoxLBFGS(lin, []float64{0.3, 0.3}, []float64{0, 0}, []float64{1, 1}, LBFGSSettings{})
	if r.X[0] != 0 || r.X[1] != 1 || !strings.Contains(r.Status, "gradient") {
		t.Errorf("linear objective: %+v", r)
	}
}

func TestBoxLBFGSPanics(t *testing.T) {
	for _, tc := range []struct {
		name       string
		x0, lo, hi []float64
	}{
		{"lengths", []float64{0}, []float64{0, 0}, []float64{1, 1}},
		{"inverted box", []float64{0}, []float64{1}, []float64{0}},
		{"NaN bound", []float64{0}, []float64{math.NaN()}, []float64{1}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			BoxLBFGS(rosenbrock, tc.x0, tc.lo, tc.hi, LBFGSSettings{})
		}()
	}
}

func TestCentralDifference(t *testing.T) {
	f := CentralDifference(func(x []float64) float64 { return rosenbrock(x, nil) }, 1e-6)
	x := []float64{0.3, -0.7, 1.1}
	g, want := make([]float64, 3), make([]float64, 3)
	v := f(x, g)
	w := rosenbrock(x, want)
	if v != w {
		t.Errorf("value %g, want %g", v, w)
	}
	for i := range g {
		if math.Abs(g[i]-want[i]) > 1e-5*math.Max(1, math.Abs(want[i])) {
			t.Errorf("∂f/∂x%d = %g, want %g", i, g[i], want[i])
		}
	}
}
