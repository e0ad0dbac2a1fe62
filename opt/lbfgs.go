package opt

import (
	"fmt"
	"math"
)

// LBFGSSettings controls BoxLBFGS. A zero (or negative) field takes the
// default of spec §3.2.
type LBFGSSettings struct {
	Memory  int     // (s, y) pairs kept for the two-loop recursion; default 10
	MaxIter int     // iteration limit; default 200
	GradTol float64 // stop when the projected gradient's ∞-norm is below this; default 1e-5
	RelTol  float64 // stop when f changed by less than RelTol·|f| over 3 iterations; default 1e-9
}

func (s LBFGSSettings) withDefaults() LBFGSSettings {
	if s.Memory <= 0 {
		s.Memory = 10
	}
	if s.MaxIter <= 0 {
		s.MaxIter = 200
	}
	if !(s.GradTol > 0) {
		s.GradTol = 1e-5
	}
	if !(s.RelTol > 0) {
		s.RelTol = 1e-9
	}
	return s
}

const (
	armijoC1      = 1e-4 // sufficient-decrease constant
	backtrack     = 0.5  // step shrink factor
	maxBacktracks = 60   // 0.5^60 ≈ 1e-18: below that no step changes x
	relWindow     = 3    // iterations over which RelTol is measured
)

// BoxLBFGS minimises f inside the box [lower, upper] from x0 by projected
// L-BFGS (spec §3.2, Decision). Each iteration
//
//   - freezes the variables that sit at a bound with the gradient pointing
//     out of the box (and those with lower = upper),
//   - computes the L-BFGS two-loop direction on the other, free variables,
//     with dot products restricted to them and memory Memory,
//   - backtracks along the projected path P(x + αd) from α = 1 (from
//     1/‖∇f‖∞ while there is no curvature information) until the Armijo
//     condition f(P(x+αd)) ≤ f(x) + c1·∇f·(P(x+αd) − x) holds
//     (c1 = 1e-4, shrink 0.5).
//
// It stops when the ∞-norm of the projected gradient P(x − ∇f) − x is below
// GradTol, when f changed by less than RelTol relative over the last 3
// iterations, after MaxIter iterations, or when the line search fails twice
// (once more after dropping the memory), which means x is optimal to working
// precision. Infinite bounds are allowed.
//
// Every iterate is projected, so BoxLBFGS never returns a point outside the
// box, and it accepts only decreasing steps, so it never returns a point
// worse than x0 projected into the box (NaN start coordinates are replaced
// by the box midpoint, or a finite bound, or 0). An objective value that is
// NaN or ±Inf, or a non-finite gradient, is treated as f = +Inf: the line
// search backtracks away from it. If f is not finite at the start, BoxLBFGS
// returns the projected start with F = +Inf and Status StatusNonFinite.
//
// BoxLBFGS panics if the lengths of x0, lower and upper differ or if some
// lower[i] > upper[i] (or is NaN): box bounds are the caller's invariants.
func BoxLBFGS(f Objective, x0, lower, upper []float64, s LBFGSSettings) Result {
	n := len(x0)
	if len(lower) != n || len(upper) != n {
		panic(fmt.Sprintf("opt: BoxLBFGS: len(x0) = %d, len(lower) = %d, len(upper) = %d", n, len(lower), len(upper)))
	}
	for i := range lower {
		if !(lower[i] <= upper[i]) {
			panic(fmt.Sprintf("opt: BoxLBFGS: bound %d: lower %g > upper %g", i, lower[i], upper[i]))
		}
	}
	s = s.withDefaults()
	b := &boxRun{f: f, lower: lower, upper: upper}

	x := make([]float64, n)
	copy(x, x0)
	b.startProject(x)
	g := make([]float64, n)
	fx := b.eval(x, g)
	res := Result{X: x, F: fx}
	if math.IsInf(fx, 1) {
		res.Status = StatusNonFinite
		res.Evaluations = b.evals
		return res
	}

	mem := newMemory(s.Memory, n)
	free := make([]bool, n)
	d := make([]float64, n)
	xt := make([]float64, n)
	gt := make([]float64, n)
	history := []float64{fx}
	for {
		if b.projGradNorm(x, g) <= s.GradTol {
			res.Status = StatusGradTol
			break
		}
		if res.Iterations >= s.MaxIter {
			res.Status = StatusMaxIter
			break
		}
		b.freeSet(x, g, free)
		mem.direction(g, free, d)
		if dot(g, d, free) >= 0 { // not a descent direction: restart as steepest descent
			mem.reset()
			mem.direction(g, free, d)
		}
		alpha := 1.0
		if mem.len() == 0 {
			alpha = math.Min(1, 1/normInf(d))
		}
		ft, ok := b.lineSearch(x, g, d, fx, alpha, xt, gt)
		if !ok {
			if mem.len() > 0 {
				mem.reset()
				continue
			}
			res.Status = StatusLineSearch
			break
		}
		mem.push(x, xt, g, gt)
		copy(x, xt)
		copy(g, gt)
		fx = ft
		res.Iterations++
		history = append(history, fx)
		if k := len(history) - 1; k >= relWindow {
			old := history[k-relWindow]
			if math.Abs(old-fx) <= s.RelTol*math.Max(math.Abs(fx), math.Abs(old)) {
				res.Status = StatusRelTol
				break
			}
		}
	}
	res.F = fx
	res.Evaluations = b.evals
	return res
}

// boxRun holds what the pieces of one BoxLBFGS run share.
type boxRun struct {
	f            Objective
	lower, upper []float64
	evals        int
}

// eval calls f and maps non-finite values or gradients to +Inf.
func (b *boxRun) eval(x, g []float64) float64 {
	b.evals++
	v := b.f(x, g)
	if !finite(v) {
		return math.Inf(1)
	}
	for _, gi := range g {
		if !finite(gi) {
			return math.Inf(1)
		}
	}
	return v
}

// startProject moves x0 into the box, replacing NaN coordinates.
func (b *boxRun) startProject(x []float64) {
	for i, xi := range x {
		if math.IsNaN(xi) {
			lo, hi := b.lower[i], b.upper[i]
			switch {
			case finite(lo) && finite(hi):
				xi = lo + 0.5*(hi-lo)
			case finite(lo):
				xi = lo
			case finite(hi):
				xi = hi
			default:
				xi = 0
			}
		}
		x[i] = math.Min(math.Max(xi, b.lower[i]), b.upper[i])
	}
}

// projGradNorm returns ‖P(x − g) − x‖∞.
func (b *boxRun) projGradNorm(x, g []float64) float64 {
	m := 0.0
	for i := range x {
		p := math.Min(math.Max(x[i]-g[i], b.lower[i]), b.upper[i])
		m = math.Max(m, math.Abs(p-x[i]))
	}
	return m
}

// freeSet marks the variables the direction may move: not fixed, and not at
// a bound with the gradient pushing outwards.
func (b *boxRun) freeSet(x, g []float64, free []bool) {
	for i := range x {
		atLow := x[i] <= b.lower[i] && g[i] > 0
		atHigh := x[i] >= b.upper[i] && g[i] < 0
		free[i] = b.lower[i] < b.upper[i] && !atLow && !atHigh
	}
}

// lineSearch backtracks along P(x + αd) until the Armijo condition holds,
// leaving the accepted point and its gradient in xt, gt.
func (b *boxRun) lineSearch(x, g, d []float64, fx, alpha float64, xt, gt []float64) (float64, bool) {
	for range maxBacktracks {
		dec := 0.0 // ∇f·(xt − x), the first-order change along the projected step
		for i := range x {
			xt[i] = math.Min(math.Max(x[i]+alpha*d[i], b.lower[i]), b.upper[i])
			dec += g[i] * (xt[i] - x[i])
		}
		if dec < 0 {
			if ft := b.eval(xt, gt); ft <= fx+armijoC1*dec {
				return ft, true
			}
		}
		alpha *= backtrack
	}
	return fx, false
}

// memory is the L-BFGS history of steps s = x' − x and gradient changes
// y = g' − g, oldest first.
type memory struct {
	s, y  [][]float64
	size  int
	alpha []float64 // scratch for the two-loop recursion
	rho   []float64
}

func newMemory(size, n int) *memory {
	return &memory{size: size, alpha: make([]float64, size), rho: make([]float64, size)}
}

func (m *memory) len() int { return len(m.s) }

func (m *memory) reset() { m.s, m.y = m.s[:0], m.y[:0] }

// push records a step, skipping it when the curvature sᵀy is not safely
// positive (the BFGS update would lose positive definiteness).
func (m *memory) push(x, xt, g, gt []float64) {
	var s, y []float64
	if len(m.s) == m.size { // recycle the oldest pair's storage
		s, y = m.s[0], m.y[0]
		m.s, m.y = append(m.s[:0], m.s[1:]...), append(m.y[:0], m.y[1:]...)
	} else {
		s, y = make([]float64, len(x)), make([]float64, len(x))
	}
	sy, yy := 0.0, 0.0
	for i := range x {
		s[i], y[i] = xt[i]-x[i], gt[i]-g[i]
		sy += s[i] * y[i]
		yy += y[i] * y[i]
	}
	if !(sy > 1e-10*yy) {
		return
	}
	m.s, m.y = append(m.s, s), append(m.y, y)
}

// direction writes the two-loop L-BFGS direction d = −H∇f restricted to the
// free variables (zero elsewhere). Pairs whose curvature on the free
// variables is not positive are skipped.
func (m *memory) direction(g []float64, free []bool, d []float64) {
	for i := range d {
		if free[i] {
			d[i] = -g[i]
		} else {
			d[i] = 0
		}
	}
	gamma := 1.0
	newest := -1
	for j := len(m.s) - 1; j >= 0; j-- {
		sy := dot(m.s[j], m.y[j], free)
		if !(sy > 0) {
			m.rho[j] = 0
			continue
		}
		if newest < 0 {
			newest = j
			gamma = sy / dot(m.y[j], m.y[j], free)
		}
		m.rho[j] = 1 / sy
		m.alpha[j] = m.rho[j] * dot(m.s[j], d, free)
		axpy(-m.alpha[j], m.y[j], d, free)
	}
	for i := range d {
		d[i] *= gamma
	}
	for j := range m.s {
		if m.rho[j] == 0 {
			continue
		}
		beta := m.rho[j] * dot(m.y[j], d, free)
		axpy(m.alpha[j]-beta, m.s[j], d, free)
	}
}

// dot returns Σ a_i b_i over the free indices.
func dot(a, b []float64, free []bool) float64 {
	s := 0.0
	for i, f := range free {
		if f {
			s += a[i] * b[i]
		}
	}
	return s
}

// axpy sets y_i += a·x_i over the free indices.
func axpy(a float64, x, y []float64, free []bool) {
	for i, f := range free {
		if f {
			y[i] += a * x[i]
		}
	}
}

func normInf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
