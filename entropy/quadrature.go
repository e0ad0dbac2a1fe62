package entropy

import "math"

const (
	// DefaultTol is the quadrature's default absolute tolerance
	// [spec §5.1, Decision; 000 §3.3 compares 1e-3, 1e-4 and 1e-6].
	DefaultTol = 1e-4
	// maxDepth bounds the recursion of adaptive Simpson [spec §5.1, Decision].
	maxDepth = 50
	// maxPieces caps the initial partition (see bounds).
	maxPieces = 1024
)

// bounds returns the integration interval of spec §5.1,
// [min μ − 8√max v, max μ + 8√max v], and the number of equal pieces it is
// first cut into. Adaptive Simpson judges a piece by five points, so a
// component much narrower than a piece can fall between them and be
// missed; pieces no wider than twice the smallest standard deviation see
// every component (the cap keeps the cost bounded when one component is
// extremely narrow).
func (q Mixture) bounds() (lo, hi float64, pieces int) {
	lo, hi = math.Inf(1), math.Inf(-1)
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
	return lo, hi, int(min(n, maxPieces))
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
	lo, hi, n := q.bounds()
	h := (hi - lo) / float64(n)
	ptol := tol / float64(n)
	var sum float64
	fa := p.negQLogQ(lo)
	for i := range n {
		a := lo + float64(i)*h
		b := a + h
		if i == n-1 {
			b = hi
		}
		m := 0.5 * (a + b)
		fm, fb := p.negQLogQ(m), p.negQLogQ(b)
		whole := (b - a) / 6 * (fa + 4*fm + fb)
		sum += simpson(p.negQLogQ, a, m, b, fa, fm, fb, whole, ptol, maxDepth)
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

// Integrate writes ∫_lo^hi f(y) dy into out, for a vector-valued f
// (f(y, v) writes len(out) values into v), by adaptive Simpson cut into
// pieces equal pieces first; a panel is accepted when every component
// meets the absolute tolerance tol (shared over the pieces in proportion
// to their width). Recursion depth ≤ 50 [spec §5.1].
func Integrate(f func(y float64, v []float64), lo, hi float64, pieces int, tol float64, out []float64) {
	k := len(out)
	pieces = max(pieces, 1)
	s := &vsimpson{f: f, k: k}
	clear(out)
	h := (hi - lo) / float64(pieces)
	fa := s.eval(lo)
	for i := range pieces {
		a := lo + float64(i)*h
		b := a + h
		if i == pieces-1 {
			b = hi
		}
		m := 0.5 * (a + b)
		fm, fb := s.eval(m), s.eval(b)
		whole := make([]float64, k)
		for c := range whole {
			whole[c] = (b - a) / 6 * (fa[c] + 4*fm[c] + fb[c])
		}
		s.rec(a, m, b, fa, fm, fb, whole, tol/float64(pieces), maxDepth, out)
		fa = fb
	}
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
	lo, hi, n := q.bounds()
	out := make([]float64, 1+np)
	Integrate(f, lo, hi, n, tol, out)
	copy(grad, out[1:])
	return out[0]
}
