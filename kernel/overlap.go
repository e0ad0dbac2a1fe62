package kernel

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Defaults of the exponentiated overlap kernel [mixed spec §3.2; reference
// code: xingchenwan/Casmopolitan].
const (
	expOverlapInit     = 0.07071067811865475 // √0.005
	expOverlapLo       = 0.01
	expOverlapHiARD    = 0.5
	expOverlapHiIsotro = 2.5
)

var (
	_ Kernel = (*Overlap)(nil)
	_ Kernel = (*ExpOverlap)(nil)
	_ Binder = (*ExpOverlap)(nil)
)

// Overlap is the overlap (indicator) kernel on categorical inputs
//
//	k_h(h, h') = (1/d_h) Σ_{i ∈ cols} 𝟙(h_i = h'_i),  d_h = len(cols)
//
// [000 Eq. 5.7; 002 Eq. 5.2; 004 Eq. 4.15]. A categorical value is its
// 0-based category index stored as a float64, and values are compared
// exactly. It is the limit l → 0 of a unit-variance RBF per categorical
// dimension [000 Eqs. 5.8–5.9].
//
// It has no parameters: σ is fixed at 1 and an outer signal variance (that of
// Mixture) scales the whole covariance [mixed spec §3.1, Decision]. Its
// input gradient is 0 (the inputs are discrete).
type Overlap struct {
	cols []int
}

// NewOverlap returns the overlap kernel on columns cols of the input vector
// it is given (inside a Subset, columns of the sub-vector). It panics if cols
// is empty or holds a negative or repeated index.
func NewOverlap(cols []int) *Overlap {
	checkCols("NewOverlap", cols)
	return &Overlap{cols: slices.Clone(cols)}
}

// Cols returns a copy of the categorical columns.
func (k *Overlap) Cols() []int { return slices.Clone(k.cols) }

// NumParams implements Kernel; Overlap has none.
func (k *Overlap) NumParams() int { return 0 }

// Params implements Kernel.
func (k *Overlap) Params(dst []float64) []float64 { return resize(dst, 0) }

// SetParams implements Kernel.
func (k *Overlap) SetParams(p []float64) {
	if len(p) != 0 {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want 0", len(p)))
	}
}

// Bounds implements Kernel.
func (k *Overlap) Bounds() []Bound { return []Bound{} }

// Clone implements Kernel.
func (k *Overlap) Clone() Kernel { return &Overlap{cols: slices.Clone(k.cols)} }

// same is the Kronecker delta δ(a, b) as a number, without a branch
// (see match).
func same(a, b float64) float64 {
	var d int
	if a == b {
		d = 1
	}
	return float64(d)
}

// matches returns the number of columns where x and y agree.
func matches(cols []int, x, y []float64) int {
	n := 0
	for _, c := range cols {
		if x[c] == y[c] {
			n++
		}
	}
	return n
}

// Eval implements Kernel.
func (k *Overlap) Eval(x, y []float64) float64 {
	return float64(matches(k.cols, x, y)) / float64(len(k.cols))
}

// ParamGrad implements Kernel.
func (k *Overlap) ParamGrad(x, y, dst []float64) float64 {
	if len(dst) != 0 {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want 0", len(dst)))
	}
	return k.Eval(x, y)
}

// InputGrad implements Kernel; the gradient is 0.
func (k *Overlap) InputGrad(x, y, dst []float64) float64 {
	zeroInputGrad(x, dst)
	return k.Eval(x, y)
}

func zeroInputGrad(x, dst []float64) {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	for d := range dst {
		dst[d] = 0
	}
}

// ExpOverlap is the exponentiated ("transformed") overlap kernel of
// CASMOPOLITAN [000 Eq. 5.11]:
//
//	k_h(h, h') = exp( (1/d_h) Σ_{i ∈ cols} l_i δ(h_i, h'_i) ),
//
// with one l_i per column (ARD) or a shared l. It is PSD as the exponential
// of a PSD kernel [000 Lemma 1, App. C.3.1]. Note k(h, h) = exp(Σ l_i/d_h),
// not 1.
//
// The normalised form of the reference code (option expoverlap_normalised)
// is exp(Σ l_i δ_i / Σ l_i) with ARD [reference code:
// xingchenwan/Casmopolitan]; without ARD that code uses exp(l Σ δ_i / d_h),
// the thesis form, so the option changes nothing for an isotropic kernel
// [mixed spec §3.2].
//
// The log-parameters are log l_i (len(cols) of them with ARD, else one).
// Defaults: l = √0.005, bounds [0.01, 0.5] with ARD and [0.01, 2.5] without
// [mixed spec §3.2]. Values are compared exactly, as in Overlap; the input
// gradient is 0.
type ExpOverlap struct {
	cols       []int
	ard        bool
	normalised bool
	logLen     []float64
	bound      Bound     // log units
	ls         []float64 // exp(logLen), refreshed by SetParams
	s          float64   // S below, refreshed by SetParams
	gen        uint64    // counts refreshes, so that a Gram knows its kept values are stale
}

// NewExpOverlap returns the exponentiated overlap kernel on columns cols of
// the input vector it is given (inside a Subset, columns of the sub-vector):
// with one lengthscale per column when ard is true, and the normalised
// (reference-code) form when normalised is true. It panics if cols is empty
// or holds a negative or repeated index.
func NewExpOverlap(cols []int, ard bool, normalised bool) *ExpOverlap {
	checkCols("NewExpOverlap", cols)
	n, hi := 1, expOverlapHiIsotro
	if ard {
		n, hi = len(cols), expOverlapHiARD
	}
	k := &ExpOverlap{
		cols:       slices.Clone(cols),
		ard:        ard,
		normalised: normalised,
		logLen:     make([]float64, n),
		ls:         make([]float64, n),
		bound:      logBound(Bound{expOverlapLo, hi}),
	}
	for i := range k.logLen {
		k.logLen[i] = math.Log(expOverlapInit)
	}
	k.refresh()
	return k
}

func (k *ExpOverlap) refresh() {
	for i, u := range k.logLen {
		k.ls[i] = math.Exp(u)
	}
	k.s = float64(len(k.cols))
	if k.ard && k.normalised {
		k.s = 0
		for _, l := range k.ls {
			k.s += l
		}
	}
	k.gen++
}

// Cols returns a copy of the categorical columns.
func (k *ExpOverlap) Cols() []int { return slices.Clone(k.cols) }

// ARD reports whether each column has its own lengthscale.
func (k *ExpOverlap) ARD() bool { return k.ard }

// Normalised reports whether the reference-code form exp(Σ l_i δ_i / Σ l_i)
// is used (only with ARD).
func (k *ExpOverlap) Normalised() bool { return k.normalised }

// Lengthscales returns the lengthscales l_i in natural units.
func (k *ExpOverlap) Lengthscales() []float64 { return slices.Clone(k.ls) }

// SetLengthscales sets the lengthscales in natural units; len(l) must match
// Lengthscales. It panics on a length mismatch.
func (k *ExpOverlap) SetLengthscales(l []float64) {
	if len(l) != len(k.logLen) {
		panic(fmt.Sprintf("kernel: %d lengthscales, want %d", len(l), len(k.logLen)))
	}
	for i, v := range l {
		k.logLen[i] = math.Log(v)
	}
	k.refresh()
}

// SetBound sets the bound of every lengthscale, in natural units. It panics
// unless 0 < Lo ≤ Hi.
func (k *ExpOverlap) SetBound(b Bound) { k.bound = logBound(b) }

// NumParams implements Kernel.
func (k *ExpOverlap) NumParams() int { return len(k.logLen) }

// Params implements Kernel.
func (k *ExpOverlap) Params(dst []float64) []float64 {
	dst = resize(dst, len(k.logLen))
	copy(dst, k.logLen)
	return dst
}

// SetParams implements Kernel.
func (k *ExpOverlap) SetParams(p []float64) {
	if len(p) != len(k.logLen) {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want %d", len(p), len(k.logLen)))
	}
	copy(k.logLen, p)
	k.refresh()
}

// Bounds implements Kernel.
func (k *ExpOverlap) Bounds() []Bound {
	b := make([]Bound, len(k.logLen))
	for i := range b {
		b[i] = k.bound
	}
	return b
}

// Clone implements Kernel.
func (k *ExpOverlap) Clone() Kernel {
	c := *k
	c.cols = slices.Clone(k.cols)
	c.logLen = slices.Clone(k.logLen)
	c.ls = slices.Clone(k.ls)
	return &c
}

// The exponentiated overlap depends on a pair of inputs only through the
// columns where they agree, held as a match mask: bit t%64 of word t/64 is
// set when x and y agree on cols[t]. ParamGrad finds the mask and
// evaluates from it; the Gram of Bind finds every pair's mask once.

// maskWords returns the number of words of a match mask.
func (k *ExpOverlap) maskWords() int { return (len(k.cols) + 63) / 64 }

// match returns the match mask of x and y, in buf when it is long enough.
// It has no branch per column: categories agree about half the time on
// binary spaces, and a mispredicted branch per column once made the
// kernel's loops almost half of casmopolitan's CPU time on Ackley-53.
func (k *ExpOverlap) match(x, y []float64, buf []uint64) []uint64 {
	var m []uint64
	if w := k.maskWords(); w <= len(buf) {
		m = buf[:w]
	} else {
		m = make([]uint64, w)
	}
	for w := range m {
		var word uint64
		cols := k.cols[w*64 : min(w*64+64, len(k.cols))]
		for t, c := range cols {
			var b uint64
			if x[c] == y[c] {
				b = 1
			}
			word |= b << t
		}
		m[w] = word
	}
	return m
}

// sum returns A = Σ l_i δ_i at match mask m (isotropic: l Σ δ_i); the
// exponent is A/S with S = Σ l_i in the normalised form, else d_h. A adds
// the lengthscales of the matching columns in column order, which is the
// sum over all columns with δ_i = 0 adding +0: the same to the last bit.
func (k *ExpOverlap) sum(m []uint64) (a float64) {
	if !k.ard {
		n := 0
		for _, word := range m {
			n += bits.OnesCount64(word)
		}
		return k.ls[0] * float64(n)
	}
	for w, word := range m {
		for ; word != 0; word &= word - 1 {
			a += k.ls[w*64+bits.TrailingZeros64(word)]
		}
	}
	return a
}

// paramGrad writes ParamGrad at match mask m into dst, given A and the
// value v = exp(A/S).
func (k *ExpOverlap) paramGrad(m []uint64, v, a float64, dst []float64) {
	s := k.s
	switch {
	case !k.ard:
		dst[0] = v * (a / s)
	case k.normalised:
		ratio := a / s
		for i := range dst {
			delta := float64(m[i/64] >> (i % 64) & 1)
			dst[i] = v * k.ls[i] * (delta - ratio) / s
		}
	default: // ratio 0: the columns that do not match have derivative +0
		clear(dst)
		for w, word := range m {
			for ; word != 0; word &= word - 1 {
				i := w*64 + bits.TrailingZeros64(word)
				dst[i] = v * k.ls[i] / s
			}
		}
	}
}

// Eval implements Kernel. One pair is evaluated faster by adding l_i·δ_i
// over all the columns than through a match mask, and δ_i = 0 adds +0, so
// the sum is sum's to the last bit.
func (k *ExpOverlap) Eval(x, y []float64) float64 {
	if !k.ard {
		return math.Exp(k.ls[0] * float64(matches(k.cols, x, y)) / k.s)
	}
	var a float64
	for i, c := range k.cols {
		a += k.ls[i] * same(x[c], y[c])
	}
	return math.Exp(a / k.s)
}

// ParamGrad implements Kernel. Thesis form: ∂k/∂(log l_i) = k l_i δ_i / d_h
// (isotropic: k l Σδ_i / d_h). Normalised form: ∂k/∂l_i = k (δ_i − A/S)/S,
// so ∂k/∂(log l_i) = k l_i (δ_i − A/S)/S [mixed spec §3.2].
func (k *ExpOverlap) ParamGrad(x, y, dst []float64) float64 {
	if len(dst) != len(k.logLen) {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want %d", len(dst), len(k.logLen)))
	}
	var buf [4]uint64
	m := k.match(x, y, buf[:])
	a := k.sum(m)
	v := math.Exp(a / k.s)
	k.paramGrad(m, v, a, dst)
	return v
}

// Bind implements Binder. The Gram finds the match masks of all pairs of X
// once, and keeps each pair's value from Eval for the ParamGrad at the
// same parameters: then it costs no sum and no exp.
func (k *ExpOverlap) Bind(X [][]float64) Gram {
	g := &expOverlapGram{k: k, words: k.maskWords(), kept: newKept[expOverlapValues](len(X))}
	g.masks = make([]uint64, len(g.kept.val)*g.words)
	for i, x := range X {
		for j, y := range X[:i+1] {
			k.match(x, y, g.mask(pair(i, j)))
		}
	}
	return g
}

// expOverlapValues are the value v = exp(A/S) and the sum A of a pair.
type expOverlapValues struct{ v, a float64 }

// expOverlapGram is the Gram of an ExpOverlap: the match mask of every
// pair and the values kept for the current parameters.
type expOverlapGram struct {
	k     *ExpOverlap
	words int
	masks []uint64
	kept  kept[expOverlapValues]
}

func (g *expOverlapGram) mask(p int) []uint64 {
	return g.masks[p*g.words : (p+1)*g.words : (p+1)*g.words]
}

func (g *expOverlapGram) values(p int) expOverlapValues {
	if c, ok := g.kept.get(p, g.k.gen); ok {
		return c
	}
	a := g.k.sum(g.mask(p))
	c := expOverlapValues{math.Exp(a / g.k.s), a}
	g.kept.put(p, g.k.gen, c)
	return c
}

func (g *expOverlapGram) Eval(i, j int) float64 { return g.values(pair(i, j)).v }

func (g *expOverlapGram) ParamGrad(i, j int, dst []float64) float64 {
	p := pair(i, j)
	c := g.values(p)
	g.k.paramGrad(g.mask(p), c.v, c.a, dst)
	return c.v
}

// InputGrad implements Kernel; the gradient is 0.
func (k *ExpOverlap) InputGrad(x, y, dst []float64) float64 {
	zeroInputGrad(x, dst)
	return k.Eval(x, y)
}
