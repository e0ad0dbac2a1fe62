package kernel

import (
	"fmt"
	"math"
	"slices"
)

// Warp is a kernel on inputs warped coordinate by coordinate by the
// cumulative distribution function of a Kumaraswamy distribution,
//
//	k(x, y) = base(w(x), w(y)),  w_d(x) = 1 − (1 − x_d^a_d)^b_d,
//
// the input warping of HEBO (Cowen-Rivers et al. 2022, §4.1) and
// BoTorch's Warp, after Snoek et al. 2014's Beta CDF: a monotone map of
// [0, 1] onto itself that can stretch one end of an axis and compress the
// other, which a stationary kernel cannot. a_d and b_d are two
// log-parameters per warped coordinate, fitted with the base kernel's. As
// in BoTorch, x_d is first mapped into [ε, 1 − ε] (ε = 1e-7), where the
// derivatives of w are finite. The coordinates not in dims (one-hot
// columns, say) reach the base kernel as they are.
type Warp struct {
	base Kernel
	dims []int
	logA []float64 // per warped coordinate, in the order of dims
	logB []float64
	a, b []float64
	gen  uint64 // counts SetParams, for the Gram's warped inputs
}

const warpEps = 1e-7

// WarpBound bounds each log a_d and log b_d: [0.1, 10] in natural units,
// a_d = b_d = 1 (no warping) in the middle.
var WarpBound = Bound{Lo: math.Log(0.1), Hi: math.Log(10)}

// NewWarp returns base on inputs warped along dims (coordinates in
// [0, 1]), starting from no warping (a = b = 1). It panics on a repeated
// or negative coordinate.
func NewWarp(base Kernel, dims []int) *Warp {
	for i, d := range dims {
		if d < 0 || slices.Contains(dims[:i], d) {
			panic(fmt.Sprintf("kernel: NewWarp: coordinate %d negative or repeated in %v", d, dims))
		}
	}
	m := len(dims)
	k := &Warp{base: base, dims: slices.Clone(dims), logA: make([]float64, m), logB: make([]float64, m), a: make([]float64, m), b: make([]float64, m)}
	k.refresh()
	return k
}

func (k *Warp) refresh() {
	for j := range k.dims {
		k.a[j], k.b[j] = math.Exp(k.logA[j]), math.Exp(k.logB[j])
	}
	k.gen++
}

// Base returns the kernel on the warped inputs.
func (k *Warp) Base() Kernel { return k.base }

// Dims returns the warped coordinates.
func (k *Warp) Dims() []int { return slices.Clone(k.dims) }

// Shapes returns a_d and b_d of each warped coordinate, in the order of
// Dims.
func (k *Warp) Shapes() (a, b []float64) { return slices.Clone(k.a), slices.Clone(k.b) }

// NumParams implements Kernel: the base kernel's, then log a_d, then
// log b_d.
func (k *Warp) NumParams() int { return k.base.NumParams() + 2*len(k.dims) }

// Params implements Kernel.
func (k *Warp) Params(dst []float64) []float64 {
	dst = k.base.Params(dst)
	dst = append(dst, k.logA...)
	return append(dst, k.logB...)
}

// SetParams implements Kernel.
func (k *Warp) SetParams(p []float64) {
	if len(p) != k.NumParams() {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want %d", len(p), k.NumParams()))
	}
	nb := k.base.NumParams()
	// The base is set every time, so that a Gram of it bound to inputs
	// that the warp changes in place sees new parameters (gram.go).
	k.base.SetParams(p[:nb])
	m := len(k.dims)
	copy(k.logA, p[nb:nb+m])
	copy(k.logB, p[nb+m:])
	k.refresh()
}

// Bounds implements Kernel.
func (k *Warp) Bounds() []Bound {
	b := k.base.Bounds()
	for range 2 * len(k.dims) {
		b = append(b, WarpBound)
	}
	return b
}

// Clone implements Kernel.
func (k *Warp) Clone() Kernel {
	c := *k
	c.base = k.base.Clone()
	c.dims = slices.Clone(k.dims)
	c.logA, c.logB = slices.Clone(k.logA), slices.Clone(k.logB)
	c.a, c.b = slices.Clone(k.a), slices.Clone(k.b)
	return &c
}

// at returns w(x) for the j-th warped coordinate and its derivatives
// ∂w/∂x, ∂w/∂log a and ∂w/∂log b: with s = ε + (1 − 2ε)x, t = 1 − s^a and
// w = 1 − t^b, ∂w/∂s = a b s^(a−1) t^(b−1), ∂w/∂a = b t^(b−1) s^a log s
// and ∂w/∂b = −t^b log t.
func (k *Warp) at(j int, x float64) (w, dx, dla, dlb float64) {
	a, b := k.a[j], k.b[j]
	s := warpEps + (1-2*warpEps)*x
	sa := math.Pow(s, a)
	t := 1 - sa
	tb1 := math.Pow(t, b-1)
	tb := tb1 * t
	w = 1 - tb
	dx = a * b * sa / s * tb1 * (1 - 2*warpEps)
	dla = a * b * tb1 * sa * math.Log(s)
	dlb = -b * tb * math.Log(t)
	return
}

// warp returns x with its warped coordinates warped, in a new slice; with
// dla and dlb (of len(Dims())) it writes ∂w/∂log a and ∂w/∂log b there.
func (k *Warp) warp(x, dla, dlb []float64) []float64 {
	u := slices.Clone(x)
	for j, d := range k.dims {
		var a, b float64
		u[d], _, a, b = k.at(j, x[d])
		if dla != nil {
			dla[j], dlb[j] = a, b
		}
	}
	return u
}

// Eval implements Kernel.
func (k *Warp) Eval(x, y []float64) float64 {
	return k.base.Eval(k.warp(x, nil, nil), k.warp(y, nil, nil))
}

// ParamGrad implements Kernel: the base kernel's gradient at the warped
// inputs u = w(x), v = w(y), then ∂k/∂log a_d = ∂k/∂u_d ∂w(x_d)/∂log a_d
// + ∂k/∂v_d ∂w(y_d)/∂log a_d, and the same for b_d.
func (k *Warp) ParamGrad(x, y, dst []float64) float64 {
	if len(dst) != k.NumParams() {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want %d", len(dst), k.NumParams()))
	}
	m := len(k.dims)
	d := make([]float64, 4*m)
	xa, xb, ya, yb := d[:m], d[m:2*m], d[2*m:3*m], d[3*m:]
	u, v := k.warp(x, xa, xb), k.warp(y, ya, yb)
	gu, gv := make([]float64, len(u)), make([]float64, len(v))
	val := k.base.ParamGrad(u, v, dst[:k.base.NumParams()])
	k.shapeGrad(u, v, gu, gv, xa, xb, ya, yb, dst)
	return val
}

// shapeGrad writes ∂k/∂log a_j and ∂k/∂log b_j into dst after the base
// kernel's parameters, from the base kernel's input gradients at the
// warped inputs u and v (written into gu and gv) and the derivatives of w
// at each input.
func (k *Warp) shapeGrad(u, v, gu, gv, xa, xb, ya, yb, dst []float64) {
	k.base.InputGrad(u, v, gu)
	k.base.InputGrad(v, u, gv)
	nb, m := k.base.NumParams(), len(k.dims)
	for j, d := range k.dims {
		dst[nb+j] = gu[d]*xa[j] + gv[d]*ya[j]
		dst[nb+m+j] = gu[d]*xb[j] + gv[d]*yb[j]
	}
}

// InputGrad implements Kernel: the base kernel's input gradient at the
// warped inputs times ∂w/∂x along the warped coordinates.
func (k *Warp) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	val := k.base.InputGrad(k.warp(x, nil, nil), k.warp(y, nil, nil), dst)
	for j, d := range k.dims {
		_, dx, _, _ := k.at(j, x[d])
		dst[d] *= dx
	}
	return val
}

// Bind implements Binder. The Gram warps X once per parameter values
// (not once per pair) into rows the base kernel's own Gram is bound to,
// and keeps each point's derivatives of w for ParamGrad.
func (k *Warp) Bind(X [][]float64) Gram {
	g := &warpGram{k: k, x: X, u: make([][]float64, len(X)), dla: make([][]float64, len(X)), dlb: make([][]float64, len(X))}
	for i, x := range X {
		g.u[i] = slices.Clone(x)
		g.dla[i], g.dlb[i] = make([]float64, len(k.dims)), make([]float64, len(k.dims))
	}
	g.base = Bind(k.base, g.u)
	if len(X) > 0 {
		g.gu, g.gv = make([]float64, len(X[0])), make([]float64, len(X[0]))
	}
	return g
}

type warpGram struct {
	k        *Warp
	x, u     [][]float64 // the inputs, and as warped at generation gen
	dla, dlb [][]float64 // ∂w/∂log a, ∂w/∂log b per input and warped coordinate
	gen      uint64
	base     Gram // bound to u
	gu, gv   []float64
}

// follow warps the inputs again if the parameters changed. The base
// kernel's parameters were set with them (Warp.SetParams), so its Gram
// keeps nothing from the previous inputs.
func (g *warpGram) follow() {
	if g.gen == g.k.gen {
		return
	}
	for i, x := range g.x {
		for j, d := range g.k.dims {
			g.u[i][d], _, g.dla[i][j], g.dlb[i][j] = g.k.at(j, x[d])
		}
	}
	g.gen = g.k.gen
}

func (g *warpGram) Eval(i, j int) float64 {
	g.follow()
	return g.base.Eval(i, j)
}

func (g *warpGram) ParamGrad(i, j int, dst []float64) float64 {
	g.follow()
	val := g.base.ParamGrad(i, j, dst[:g.k.base.NumParams()])
	g.k.shapeGrad(g.u[i], g.u[j], g.gu, g.gv, g.dla[i], g.dlb[i], g.dla[j], g.dlb[j], dst)
	return val
}
