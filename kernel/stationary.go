package kernel

import (
	"fmt"
	"math"
)

// Library defaults for inputs scaled to the unit box [spec §2.3, Decision].
// The signal-variance default assumes standardised targets (var ỹ = 1).
const (
	defaultLengthscale = 0.2
	defaultLenLo       = 0.01
	defaultLenHi       = 2
	defaultVariance    = 1.0
	defaultVarLo       = 1e-2
	defaultVarHi       = 1e2
	defaultAlpha       = 1.0
	defaultAlphaLo     = 1e-2
	defaultAlphaHi     = 1e2
)

var (
	sqrt3 = math.Sqrt(3)
	sqrt5 = math.Sqrt(5)
)

var (
	_ Kernel = (*Stationary)(nil)
	_ Binder = (*Stationary)(nil)
)

// Stationary is a stationary kernel k(r) of the scaled distance
// r² = Σ_d (x_d − x'_d)² / l_d² with signal variance s² [spec §2.1].
//
// Its log-parameters are ordered: log l (one per input when ARD, else one),
// log s², then, for RQ only, log a.
type Stationary struct {
	family Family
	dim    int
	ard    bool

	logLen   []float64
	logVar   float64
	logAlpha float64

	lenBound, varBound, alphaBound Bound // log units

	// Cached natural-scale values, refreshed by SetParams.
	invL2 []float64 // 1/l_d²
	s2    float64
	alpha float64
	gen   uint64 // counts refreshes, for the values a Gram keeps
}

// NewStationary returns a kernel of family f on dim inputs, with one
// lengthscale per input when ard is true and a shared one otherwise. It uses
// the library defaults for the unit box [spec §2.3]: lengthscale 0.2 in
// [0.01, 2], signal variance 1 in [1e-2, 1e2] and, for RQ, α = 1 in
// [1e-2, 1e2]. It panics if dim < 1 or f is unknown.
func NewStationary(f Family, dim int, ard bool) *Stationary {
	if dim < 1 {
		panic(fmt.Sprintf("kernel: NewStationary with dim %d < 1", dim))
	}
	if f < RBF || f > RQ {
		panic(fmt.Sprintf("kernel: unknown family %d", int(f)))
	}
	nl := 1
	if ard {
		nl = dim
	}
	k := &Stationary{
		family:     f,
		dim:        dim,
		ard:        ard,
		logLen:     make([]float64, nl),
		invL2:      make([]float64, nl),
		logVar:     math.Log(defaultVariance),
		logAlpha:   math.Log(defaultAlpha),
		lenBound:   logBound(Bound{defaultLenLo, defaultLenHi}),
		varBound:   logBound(Bound{defaultVarLo, defaultVarHi}),
		alphaBound: logBound(Bound{defaultAlphaLo, defaultAlphaHi}),
	}
	for i := range k.logLen {
		k.logLen[i] = math.Log(defaultLengthscale)
	}
	k.refresh()
	return k
}

func logBound(b Bound) Bound {
	if !(b.Lo > 0 && b.Lo <= b.Hi) {
		panic(fmt.Sprintf("kernel: bound %v must satisfy 0 < Lo <= Hi", b))
	}
	return Bound{math.Log(b.Lo), math.Log(b.Hi)}
}

func (k *Stationary) refresh() {
	for i, u := range k.logLen {
		k.invL2[i] = math.Exp(-2 * u)
	}
	k.s2 = math.Exp(k.logVar)
	k.alpha = math.Exp(k.logAlpha)
	k.gen++
}

// Family returns the kernel family.
func (k *Stationary) Family() Family { return k.family }

// Dim returns the input dimension.
func (k *Stationary) Dim() int { return k.dim }

// ARD reports whether each input has its own lengthscale.
func (k *Stationary) ARD() bool { return k.ard }

// Lengthscales returns the lengthscales (natural units): dim values when ARD,
// else one.
func (k *Stationary) Lengthscales() []float64 {
	l := make([]float64, len(k.logLen))
	for i, u := range k.logLen {
		l[i] = math.Exp(u)
	}
	return l
}

// Variance returns the signal variance s².
func (k *Stationary) Variance() float64 { return k.s2 }

// Alpha returns the RQ shape parameter a (1 for other families, unused).
func (k *Stationary) Alpha() float64 { return k.alpha }

// SetLengthscales sets the lengthscales in natural units; len(l) must match
// Lengthscales. It panics on a length mismatch.
func (k *Stationary) SetLengthscales(l []float64) {
	if len(l) != len(k.logLen) {
		panic(fmt.Sprintf("kernel: %d lengthscales, want %d", len(l), len(k.logLen)))
	}
	for i, v := range l {
		k.logLen[i] = math.Log(v)
	}
	k.refresh()
}

// SetVariance sets the signal variance s² in natural units.
func (k *Stationary) SetVariance(s2 float64) {
	k.logVar = math.Log(s2)
	k.refresh()
}

// SetAlpha sets the RQ shape parameter a in natural units.
func (k *Stationary) SetAlpha(a float64) {
	k.logAlpha = math.Log(a)
	k.refresh()
}

// SetBounds sets the bounds of the lengthscale(s) and of the signal variance,
// given in natural units. It panics unless 0 < Lo ≤ Hi. Current values are
// left as they are; an optimiser projects them into the box.
func (k *Stationary) SetBounds(lengthscale, variance Bound) {
	k.lenBound = logBound(lengthscale)
	k.varBound = logBound(variance)
}

// SetAlphaBound sets the bound of the RQ shape parameter, in natural units.
func (k *Stationary) SetAlphaBound(b Bound) { k.alphaBound = logBound(b) }

// NumParams implements Kernel.
func (k *Stationary) NumParams() int {
	n := len(k.logLen) + 1
	if k.family == RQ {
		n++
	}
	return n
}

// Params implements Kernel.
func (k *Stationary) Params(dst []float64) []float64 {
	dst = resize(dst, k.NumParams())
	nl := copy(dst, k.logLen)
	dst[nl] = k.logVar
	if k.family == RQ {
		dst[nl+1] = k.logAlpha
	}
	return dst
}

// SetParams implements Kernel.
func (k *Stationary) SetParams(p []float64) {
	if len(p) != k.NumParams() {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want %d", len(p), k.NumParams()))
	}
	nl := copy(k.logLen, p)
	k.logVar = p[nl]
	if k.family == RQ {
		k.logAlpha = p[nl+1]
	}
	k.refresh()
}

// Bounds implements Kernel.
func (k *Stationary) Bounds() []Bound {
	b := make([]Bound, k.NumParams())
	nl := len(k.logLen)
	for i := 0; i < nl; i++ {
		b[i] = k.lenBound
	}
	b[nl] = k.varBound
	if k.family == RQ {
		b[nl+1] = k.alphaBound
	}
	return b
}

// Clone implements Kernel.
func (k *Stationary) Clone() Kernel {
	c := *k
	c.logLen = append([]float64(nil), k.logLen...)
	c.invL2 = append([]float64(nil), k.invL2...)
	return &c
}

// r2 returns the squared scaled distance.
func (k *Stationary) r2(x, y []float64) float64 {
	if len(x) != k.dim || len(y) != k.dim {
		panic(fmt.Sprintf("kernel: inputs of length %d and %d, want %d", len(x), len(y), k.dim))
	}
	var s float64
	if k.ard {
		il := k.invL2[:len(x)]
		y = y[:len(x)]
		for d, xd := range x {
			t := xd - y[d]
			s += t * t * il[d]
		}
		return s
	}
	y = y[:len(x)]
	for d, xd := range x {
		t := xd - y[d]
		s += t * t
	}
	return s * k.invL2[0]
}

// profile returns k(r) and g(r) = k'(r)/r given r² [spec §2.1 table]. g is
// finite at r = 0 for every family; for Matérn-1/2, where k'(r)/r diverges,
// it is defined as 0 there (spec Decision), which makes every gradient at
// x = x' exactly 0.
func (k *Stationary) profile(r2 float64) (val, g float64) {
	s2 := k.s2
	switch k.family {
	case RBF:
		val = s2 * math.Exp(-0.5*r2)
		return val, -val
	case Matern12:
		r := math.Sqrt(r2)
		e := s2 * math.Exp(-r)
		if r == 0 {
			return e, 0
		}
		return e, -e / r
	case Matern32:
		r := math.Sqrt(r2)
		e := s2 * math.Exp(-sqrt3*r)
		return (1 + sqrt3*r) * e, -3 * e
	case Matern52:
		r := math.Sqrt(r2)
		e := s2 * math.Exp(-sqrt5*r)
		return (1 + sqrt5*r + 5*r2/3) * e, -5.0 / 3 * (1 + sqrt5*r) * e
	case RQ:
		b := 1 + r2/(2*k.alpha)
		val = s2 * math.Pow(b, -k.alpha)
		return val, -val / b
	}
	panic("kernel: unknown family")
}

// Eval implements Kernel.
func (k *Stationary) Eval(x, y []float64) float64 {
	v, _ := k.profile(k.r2(x, y))
	return v
}

// ParamGrad implements Kernel: ∂k/∂(log l_d) = −g(r)(x_d − x'_d)²/l_d²,
// ∂k/∂(log s²) = k and, for RQ with u = r²/(2a),
// ∂k/∂(log a) = a·k·(u/(1+u) − log(1+u)) [spec §2.1].
func (k *Stationary) ParamGrad(x, y, dst []float64) float64 {
	np := k.NumParams()
	if len(dst) != np {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want %d", len(dst), np))
	}
	r2 := k.r2(x, y)
	val, g := k.profile(r2)
	k.paramGrad(x, y, r2, val, g, dst)
	return val
}

// paramGrad writes ParamGrad into dst given r², k and g(r).
func (k *Stationary) paramGrad(x, y []float64, r2, val, g float64, dst []float64) {
	nl := len(k.logLen)
	if k.ard {
		il := k.invL2[:len(x)]
		y = y[:len(x)]
		out := dst[:len(x)]
		for d, xd := range x {
			t := xd - y[d]
			out[d] = -g * t * t * il[d]
		}
	} else {
		dst[0] = -g * r2
	}
	dst[nl] = val
	if k.family == RQ {
		u := r2 / (2 * k.alpha)
		dst[nl+1] = k.alpha * val * (u/(1+u) - math.Log1p(u))
	}
}

// Bind implements Binder. The Gram keeps each pair's r², k and g(r) from
// Eval for the ParamGrad at the same parameters, which then costs no exp.
// r² of (x, x') and (x', x) are equal to the last bit.
func (k *Stationary) Bind(X [][]float64) Gram {
	return &stationaryGram{k: k, x: X, kept: newKept[stationaryValues](len(X))}
}

type stationaryValues struct{ r2, val, g float64 }

type stationaryGram struct {
	k    *Stationary
	x    [][]float64
	kept kept[stationaryValues]
}

func (g *stationaryGram) values(i, j int) stationaryValues {
	p := pair(i, j)
	if c, ok := g.kept.get(p, g.k.gen); ok {
		return c
	}
	c := stationaryValues{r2: g.k.r2(g.x[i], g.x[j])}
	c.val, c.g = g.k.profile(c.r2)
	g.kept.put(p, g.k.gen, c)
	return c
}

func (g *stationaryGram) Eval(i, j int) float64 { return g.values(i, j).val }

func (g *stationaryGram) ParamGrad(i, j int, dst []float64) float64 {
	c := g.values(i, j)
	g.k.paramGrad(g.x[i], g.x[j], c.r2, c.val, c.g, dst)
	return c.val
}

// InputGrad implements Kernel: ∂k/∂x_d = g(r)(x_d − x'_d)/l_d² [spec §2.1].
func (k *Stationary) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	val, g := k.profile(k.r2(x, y))
	y = y[:len(x)]
	dst = dst[:len(x)]
	if k.ard {
		il := k.invL2[:len(x)]
		for d, xd := range x {
			dst[d] = g * (xd - y[d]) * il[d]
		}
		return val
	}
	c := g * k.invL2[0]
	for d, xd := range x {
		dst[d] = c * (xd - y[d])
	}
	return val
}
