package entropy

import (
	"cmp"
	"math"
	"slices"
)

const (
	// DefaultTol is the quadrature's default absolute tolerance
	// [spec §5.1, Decision; 000 §3.3 compares 1e-3, 1e-4 and 1e-6].
	DefaultTol = 1e-4
	// maxDepth bounds the recursion of adaptive Simpson [spec §5.1, Decision].
	maxDepth = 50
	// maxPieces caps the uniform initial partition (see breaks).
	maxPieces = 32
)

// breaks returns the breakpoints of the integration: the interval of spec
// §5.1, [min μ − 8√max v, max μ + 8√max v], cut into at most 32 equal
// pieces no narrower than twice the smallest standard deviation, plus the
// mean of every component narrower than half a piece (unless a breakpoint
// lies within its standard deviation already). Adaptive Simpson judges a
// panel by five points, so a component much narrower than a panel can fall
// between them and be missed; a breakpoint at its mean is a node the rule
// evaluates. Narrow components of FITBO's mixtures crowd at the observed
// values (noise-dominated samples near the data), so few are added.
func (q Mixture) breaks() []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	vmax, vmin := 0.0, math.Inf(1)
	for j, m := range q.Mean {
		lo, hi = min(lo, m), max(hi, m)
		vmax, vmin = max(vmax, q.Var[j]), min(vmin, q.Var[j])
	}
	s := 8 * math.Sqrt(vmax)
	lo, hi = lo-s, hi+s
	n := math.Ceil((hi - lo) / (2 * math.Sqrt(vmin)))
	if !(n >= 1) {
		n = 1
	}
	pieces := int(min(n, maxPieces))
	h := (hi - lo) / float64(pieces)
	b := make([]float64, 0, pieces+1)
	for i := range pieces {
		b = append(b, lo+float64(i)*h)
	}
	b = append(b, hi)
	if pieces < maxPieces {
		return b
	}
	type narrow struct{ mu, sd float64 }
	var add []narrow
	for j, m := range q.Mean {
		if sd := math.Sqrt(q.Var[j]); 2*sd < h {
			add = append(add, narrow{m, sd})
		}
	}
	if len(add) == 0 {
		return b
	}
	slices.SortFunc(add, func(x, y narrow) int { return cmp.Compare(x.mu, y.mu) })
	last := math.Inf(-1)
	for _, c := range add {
		g := lo + math.Round((c.mu-lo)/h)*h // nearest grid point
		if math.Abs(c.mu-last) <= c.sd || math.Abs(c.mu-g) <= c.sd {
			continue
		}
		b = append(b, c.mu)
		last = c.mu
	}
	slices.Sort(b)
	return b
}

// negQLogQ is the integrand −q log q, 0 where q < 1e-300 [spec §5.1].
func (p comps) negQLogQ(y float64) float64 {
	d := p.density(y)
	if d < tiny {
		return 0
	}
	return -d * math.Log(d)
}

// Quadrature returns H[q] by adaptive Simpson quadrature of −q log q with
// absolute tolerance tol (DefaultTol when tol ≤ 0) [000 §3.2.3; spec §5.1],
// FITBO's estimator.
func (q Mixture) Quadrature(tol float64) float64 {
	if tol <= 0 {
		tol = DefaultTol
	}
	p := q.prepare()
	b := q.breaks()
	width := b[len(b)-1] - b[0]
	var sum float64
	fa := p.negQLogQ(b[0])
	for i := range len(b) - 1 {
		lo, hi := b[i], b[i+1]
		m := 0.5 * (lo + hi)
		fm, fb := p.negQLogQ(m), p.negQLogQ(hi)
		whole := (hi - lo) / 6 * (fa + 4*fm + fb)
		sum += simpson(p.negQLogQ, lo, m, hi, fa, fm, fb, whole, tol*(hi-lo)/width, maxDepth)
		fa = fb
	}
	return sum
}

// simpson is scalar adaptive Simpson on [a, b] (m the midpoint, f known at
// a, m, b and whole the one-panel rule): split in two, accept when the two
// halves agree with the whole to 15·tol, with Richardson's correction.
func simpson(f func(float64) float64, a, m, b, fa, fm, fb, whole, tol float64, depth int) float64 {
	lm, rm := 0.5*(a+m), 0.5*(m+b)
	flm, frm := f(lm), f(rm)
	left := (m - a) / 6 * (fa + 4*flm + fm)
	right := (b - m) / 6 * (fm + 4*frm + fb)
	d := left + right - whole
	if depth <= 0 || math.Abs(d) <= 15*tol {
		return left + right + d/15
	}
	return simpson(f, a, lm, m, fa, flm, fm, left, tol/2, depth-1) +
		simpson(f, m, rm, b, fm, frm, fb, right, tol/2, depth-1)
}

// Integrate writes ∫ f(y) dy over [b[0], b[len(b)−1]] into out, for a
// vector-valued f (f(y, v) writes len(out) values into v), by adaptive
// Simpson on each panel [b[i], b[i+1]] (b sorted); a panel is accepted when
// every component meets the absolute tolerance tol, shared over the panels
// in proportion to their width. Recursion depth ≤ 50 [spec §5.1].
func Integrate(f func(y float64, v []float64), b []float64, tol float64, out []float64) {
	k := len(out)
	s := &vsimpson{f: f, k: k}
	clear(out)
	if len(b) < 2 {
		return
	}
	width := b[len(b)-1] - b[0]
	fa := s.eval(b[0])
	for i := range len(b) - 1 {
		lo, hi := b[i], b[i+1]
		m := 0.5 * (lo + hi)
		fm, fb := s.eval(m), s.eval(hi)
		whole := make([]float64, k)
		for c := range whole {
			whole[c] = (hi - lo) / 6 * (fa[c] + 4*fm[c] + fb[c])
		}
		s.rec(lo, m, hi, fa, fm, fb, whole, tol*(hi-lo)/width, maxDepth, out)
		fa = fb
	}
}

// Grid returns n+1 equally spaced breakpoints from lo to hi, for Integrate.
func Grid(lo, hi float64, n int) []float64 {
	b := make([]float64, n+1)
	for i := range b {
		b[i] = lo + (hi-lo)*float64(i)/float64(n)
	}
	b[n] = hi
	return b
}

type vsimpson struct {
	f func(float64, []float64)
	k int
}

func (s *vsimpson) eval(y float64) []float64 {
	v := make([]float64, s.k)
	s.f(y, v)
	return v
}

// rec is simpson for vectors; it adds the integral over [a, b] to out.
func (s *vsimpson) rec(a, m, b float64, fa, fm, fb, whole []float64, tol float64, depth int, out []float64) {
	lm, rm := 0.5*(a+m), 0.5*(m+b)
	flm, frm := s.eval(lm), s.eval(rm)
	left, right := make([]float64, s.k), make([]float64, s.k)
	ok := depth <= 0
	worst := 0.0
	for c := range left {
		left[c] = (m - a) / 6 * (fa[c] + 4*flm[c] + fm[c])
		right[c] = (b - m) / 6 * (fm[c] + 4*frm[c] + fb[c])
		worst = max(worst, math.Abs(left[c]+right[c]-whole[c]))
	}
	if ok || worst <= 15*tol {
		for c := range out {
			d := left[c] + right[c] - whole[c]
			out[c] += left[c] + right[c] + d/15
		}
		return
	}
	s.rec(a, lm, m, fa, flm, fm, left, tol/2, depth-1, out)
	s.rec(m, rm, b, fm, frm, fb, right, tol/2, depth-1, out)
}

// QuadratureGrad returns H[q] by quadrature, as Quadrature does, and
// writes into grad (len p) its derivatives with respect to p parameters θ
// that the components depend on, given dMean[j][d] = ∂μ_j/∂θ_d and
// dVar[j][d] = ∂v_j/∂θ_d (the weights are fixed). Since ∫ ∂q = 0,
// ∂H/∂θ_d = −∫ log q(y) Σ_j w_j N(y; μ_j, v_j) [((y − μ_j)² − v_j)/(2v_j²)
// ∂v_j/∂θ_d + (y − μ_j)/v_j ∂μ_j/∂θ_d] dy [000 App. C.1; spec §4.6]. H and
// its gradient are integrated together by Integrate with tolerance tol
// (DefaultTol when tol ≤ 0) on the interval of Quadrature.
func (q Mixture) QuadratureGrad(dMean, dVar [][]float64, tol float64, grad []float64) float64 {
	if tol <= 0 {
		tol = DefaultTol
	}
	p := q.prepare()
	m := len(p.mu)
	if len(dMean) != m || len(dVar) != m {
		panic("entropy: QuadratureGrad needs one derivative row per component")
	}
	np := len(grad)
	cm, cv := make([]float64, m), make([]float64, m)
	f := func(y float64, out []float64) {
		var d float64
		for j, mu := range p.mu {
			r := y - mu
			pj := p.c[j] * math.Exp(-p.a[j]*r*r)
			d += pj
			iv := 2 * p.a[j] // 1/v_j
			cm[j] = pj * r * iv
			cv[j] = pj * 0.5 * (r*r*iv - 1) * iv
		}
		clear(out)
		if d < tiny {
			return
		}
		l := math.Log(d)
		out[0] = -d * l
		for j := range m {
			a, b := -l*cm[j], -l*cv[j]
			dm, dv := dMean[j], dVar[j]
			for k := range np {
				out[1+k] += a*dm[k] + b*dv[k]
			}
		}
	}
	out := make([]float64, 1+np)
	Integrate(f, q.breaks(), tol, out)
	copy(grad, out[1:])
	return out[0]
}
