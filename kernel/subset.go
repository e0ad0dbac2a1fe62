package kernel

import (
	"fmt"
	"slices"
	"sync"
)

var (
	_ Kernel = (*Subset)(nil)
	_ Binder = (*Subset)(nil)
)

// Subset applies a kernel to some columns of the input vector only:
// k_S(x, y) = k(x[cols], y[cols]). It lets kernels on different kinds of
// variable share one input vector, e.g. a Matérn-5/2 on the continuous
// columns and an overlap kernel on the categorical ones, combined by
// Mixture, Sum or Product [mixed spec §3.3].
//
// Its parameters are those of the wrapped kernel. InputGrad scatters the
// wrapped kernel's gradient into the full vector and is 0 at every other
// column.
//
// When cols is a run of consecutive columns, as the mixed samplers' layouts
// make them, the inputs are sliced in place. Otherwise Eval, ParamGrad and
// InputGrad gather them into scratch vectors from a pool, so that Subset
// may be used concurrently.
type Subset struct {
	k    Kernel
	cols []int
	// cols = lo, lo+1, ..., hi−1 when hi > 0: slice instead of gathering
	// through the pool, which took a third of a CoCaBO suggestion's time
	// (docs/performance.md).
	lo, hi int
}

// NewSubset returns k applied to x[cols], in the order of cols. It uses k (it
// does not copy it). Inputs given to the returned kernel must be longer than
// the largest column index. It panics if cols is empty or holds a negative
// or repeated index.
func NewSubset(k Kernel, cols []int) *Subset {
	checkCols("NewSubset", cols)
	s := &Subset{k: k, cols: slices.Clone(cols)}
	if lo := cols[0]; cols[len(cols)-1] == lo+len(cols)-1 && slices.IsSorted(cols) {
		s.lo, s.hi = lo, lo+len(cols) // sorted and distinct (checkCols): consecutive
	}
	return s
}

// checkCols panics unless cols is non-empty, non-negative and distinct.
func checkCols(who string, cols []int) {
	if len(cols) == 0 {
		panic("kernel: " + who + " needs at least one column")
	}
	seen := make(map[int]bool, len(cols))
	for _, c := range cols {
		if c < 0 || seen[c] {
			panic(fmt.Sprintf("kernel: %s with columns %v: indices must be distinct and >= 0", who, cols))
		}
		seen[c] = true
	}
}

// Kernel returns the wrapped kernel (not a copy).
func (s *Subset) Kernel() Kernel { return s.k }

// Cols returns a copy of the selected columns.
func (s *Subset) Cols() []int { return slices.Clone(s.cols) }

// NumParams implements Kernel.
func (s *Subset) NumParams() int { return s.k.NumParams() }

// Params implements Kernel.
func (s *Subset) Params(dst []float64) []float64 { return s.k.Params(dst) }

// SetParams implements Kernel.
func (s *Subset) SetParams(p []float64) { s.k.SetParams(p) }

// Bounds implements Kernel.
func (s *Subset) Bounds() []Bound { return s.k.Bounds() }

// Clone implements Kernel.
func (s *Subset) Clone() Kernel {
	return &Subset{k: s.k.Clone(), cols: slices.Clone(s.cols), lo: s.lo, hi: s.hi}
}

// gather writes x[cols] then y[cols] into buf (len ≥ 2·len(cols)).
func (s *Subset) gather(x, y, buf []float64) (xs, ys []float64) {
	m := len(s.cols)
	xs, ys = buf[:m:m], buf[m:2*m:2*m]
	for i, c := range s.cols {
		xs[i], ys[i] = x[c], y[c]
	}
	return xs, ys
}

// scratch pools the gather buffers of Subset; a pointer avoids an allocation
// per Put.
var scratch = sync.Pool{New: func() any { return new([]float64) }}

func getScratch(n int) *[]float64 {
	b := scratch.Get().(*[]float64)
	if cap(*b) < n {
		*b = make([]float64, n)
	}
	*b = (*b)[:n]
	return b
}

// slice returns x[cols] and y[cols] without copying (consecutive cols only).
func (s *Subset) slice(x, y []float64) (xs, ys []float64) {
	return x[s.lo:s.hi:s.hi], y[s.lo:s.hi:s.hi]
}

// Eval implements Kernel.
func (s *Subset) Eval(x, y []float64) float64 {
	if s.hi > 0 {
		return s.k.Eval(s.slice(x, y))
	}
	b := getScratch(2 * len(s.cols))
	xs, ys := s.gather(x, y, *b)
	v := s.k.Eval(xs, ys)
	scratch.Put(b)
	return v
}

// ParamGrad implements Kernel.
func (s *Subset) ParamGrad(x, y, dst []float64) float64 {
	if s.hi > 0 {
		xs, ys := s.slice(x, y)
		return s.k.ParamGrad(xs, ys, dst)
	}
	b := getScratch(2 * len(s.cols))
	xs, ys := s.gather(x, y, *b)
	v := s.k.ParamGrad(xs, ys, dst)
	scratch.Put(b)
	return v
}

// Bind implements Binder: the Gram of the wrapped kernel on the inputs'
// columns, taken out once.
func (s *Subset) Bind(X [][]float64) Gram {
	xs := make([][]float64, len(X))
	for i, x := range X {
		if s.hi > 0 {
			xs[i] = x[s.lo:s.hi:s.hi]
			continue
		}
		xs[i] = make([]float64, len(s.cols))
		for t, c := range s.cols {
			xs[i][t] = x[c]
		}
	}
	return Bind(s.k, xs)
}

// InputGrad implements Kernel.
func (s *Subset) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	for d := range dst {
		dst[d] = 0
	}
	if s.hi > 0 {
		xs, ys := s.slice(x, y)
		return s.k.InputGrad(xs, ys, dst[s.lo:s.hi:s.hi])
	}
	m := len(s.cols)
	b := getScratch(3 * m)
	xs, ys := s.gather(x, y, *b)
	g := (*b)[2*m:]
	v := s.k.InputGrad(xs, ys, g)
	for i, c := range s.cols {
		dst[c] = g[i]
	}
	scratch.Put(b)
	return v
}
