package gp

import "math"

// Projected L-BFGS for box-constrained minimisation [spec §3.2, Decision]:
// the two-loop L-BFGS direction with memory 10 on the free variables,
// variables at an active bound frozen, iterates projected onto the box,
// backtracking Armijo line search. gonum/optimize has no bounded method.
const (
	lbfgsMemory   = 10
	armijoC1      = 1e-4
	armijoShrink  = 0.5
	maxBacktracks = 40
	pgTol         = 1e-5 // projected-gradient ∞-norm
	relTol        = 1e-9 // relative objective change ...
	relWindow     = 3    // ... over this many iterations
)

// boxFunc returns f(x) and, when grad is not nil, writes ∇f(x) into grad.
// ok = false marks x as infeasible (e.g. a failed factorisation); the line
// search then treats f as +Inf.
type boxFunc func(x, grad []float64) (f float64, ok bool)

// boxResult is the outcome of one local minimisation.
type boxResult struct {
	x     []float64
	f     float64
	iters int
}

// boxLBFGS minimises f from x0 (projected onto [lo, hi]) for at most
// maxIter iterations. It reports ok = false only when f fails at the start.
func boxLBFGS(f boxFunc, x0, lo, hi []float64, maxIter int) (boxResult, bool) {
	n := len(x0)
	x := make([]float64, n)
	for i := range x {
		x[i] = clamp(x0[i], lo[i], hi[i])
	}
	g := make([]float64, n)
	fx, ok := f(x, g)
	if !ok || math.IsNaN(fx) || math.IsInf(fx, 0) {
		return boxResult{x: x, f: math.Inf(1)}, false
	}
	var (
		mem     = newLBFGSMemory(n)
		free    = make([]bool, n)
		d       = make([]float64, n)
		xn      = make([]float64, n)
		gn      = make([]float64, n)
		hist    = []float64{fx}
		iter    int
		retried bool
	)
	for iter = 0; iter < maxIter; iter++ {
		var pgNorm float64
		for i := range x {
			// A variable is frozen when it sits on a bound and the gradient
			// pushes it outwards.
			free[i] = !(x[i] <= lo[i] && g[i] > 0) && !(x[i] >= hi[i] && g[i] < 0)
			if free[i] {
				pgNorm = math.Max(pgNorm, math.Abs(g[i]))
			}
		}
		if pgNorm < pgTol {
			break
		}
		mem.direction(g, free, d)
		gd := dot(g, d)
		if !(gd < 0) {
			mem.reset()
			mem.direction(g, free, d)
			gd = dot(g, d)
		}
		step := 1.0
		if mem.len() == 0 {
			// Without curvature information, cap the first move at one
			// unit of log-parameter (a factor e).
			var dmax float64
			for _, v := range d {
				dmax = math.Max(dmax, math.Abs(v))
			}
			step = math.Min(1, 1/dmax)
		}
		accepted := false
		var fn float64
		for bt := 0; bt < maxBacktracks; bt++ {
			moved := false
			var decrease float64
			for i := range x {
				xn[i] = clamp(x[i]+step*d[i], lo[i], hi[i])
				moved = moved || xn[i] != x[i]
				decrease += g[i] * (xn[i] - x[i])
			}
			if !moved {
				break
			}
			var okn bool
			fn, okn = f(xn, nil)
			if okn && fn <= fx+armijoC1*decrease {
				accepted = true
				break
			}
			step *= armijoShrink
		}
		if !accepted {
			// Retry once from steepest descent before giving up.
			if mem.len() > 0 && !retried {
				retried = true
				mem.reset()
				continue
			}
			break
		}
		retried = false
		if fn, ok = f(xn, gn); !ok {
			break // gradient unavailable at the new point; keep the last good one
		}
		mem.push(x, xn, g, gn)
		copy(x, xn)
		copy(g, gn)
		fx = fn
		hist = append(hist, fx)
		if k := len(hist) - 1; k >= relWindow && math.Abs(hist[k-relWindow]-fx) <= relTol*math.Max(1, math.Abs(fx)) {
			iter++
			break
		}
	}
	return boxResult{x: x, f: fx, iters: iter}, true
}

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// lbfgsMem holds the last pairs s = x_{k+1} − x_k, y = g_{k+1} − g_k.
type lbfgsMem struct {
	s, y  [][]float64 // ring buffers
	head  int         // index of the oldest pair
	count int
	a     []float64 // two-loop coefficients
	rho   []float64 // 1/(sᵀy) on the free set, 0 for skipped pairs
}

func newLBFGSMemory(n int) *lbfgsMem {
	m := &lbfgsMem{s: make([][]float64, lbfgsMemory), y: make([][]float64, lbfgsMemory), a: make([]float64, lbfgsMemory), rho: make([]float64, lbfgsMemory)}
	for i := range m.s {
		m.s[i] = make([]float64, n)
		m.y[i] = make([]float64, n)
	}
	return m
}

func (m *lbfgsMem) len() int { return m.count }
func (m *lbfgsMem) reset()   { m.head, m.count = 0, 0 }

func (m *lbfgsMem) push(x, xn, g, gn []float64) {
	var sy, ss, yy float64
	for i := range x {
		si, yi := xn[i]-x[i], gn[i]-g[i]
		sy += si * yi
		ss += si * si
		yy += yi * yi
	}
	// Skip pairs without positive curvature: they would make H indefinite.
	if !(sy > 1e-12*math.Sqrt(ss*yy)) {
		return
	}
	idx := (m.head + m.count) % lbfgsMemory
	if m.count == lbfgsMemory {
		m.head = (m.head + 1) % lbfgsMemory
	} else {
		m.count++
	}
	for i := range x {
		m.s[idx][i] = xn[i] - x[i]
		m.y[idx][i] = gn[i] - g[i]
	}
}

// direction writes d = −H g restricted to the free variables (the two-loop
// recursion with all vectors masked to the free set [Nocedal & Wright
// Alg. 7.4]); frozen variables get d_i = 0.
func (m *lbfgsMem) direction(g []float64, free []bool, d []float64) {
	masked := func(a, b []float64) float64 {
		var s float64
		for i, f := range free {
			if f {
				s += a[i] * b[i]
			}
		}
		return s
	}
	q := d
	for i, f := range free {
		q[i] = 0
		if f {
			q[i] = g[i]
		}
	}
	// γ = sᵀy/yᵀy of the newest pair scales the initial Hessian [N&W Eq. 7.20].
	gamma := 1.0
	rho := m.rho
	for k := m.count - 1; k >= 0; k-- {
		j := (m.head + k) % lbfgsMemory
		rho[k] = 0
		sy := masked(m.s[j], m.y[j])
		if !(sy > 0) {
			continue
		}
		rho[k] = 1 / sy
		m.a[k] = rho[k] * masked(m.s[j], q)
		axpyMasked(-m.a[k], m.y[j], q, free)
		if k == m.count-1 {
			gamma = sy / masked(m.y[j], m.y[j])
		}
	}
	for i := range q {
		q[i] *= gamma
	}
	for k := 0; k < m.count; k++ {
		if rho[k] == 0 {
			continue
		}
		j := (m.head + k) % lbfgsMemory
		b := rho[k] * masked(m.y[j], q)
		axpyMasked(m.a[k]-b, m.s[j], q, free)
	}
	for i := range d {
		d[i] = -q[i]
	}
}

func axpyMasked(a float64, x, y []float64, free []bool) {
	for i, f := range free {
		if f {
			y[i] += a * x[i]
		}
	}
}
