package kernel

import "fmt"

// Sum is the kernel k(x,y) = Σ_j k_j(x,y). Sums of valid kernels are valid
// [000 §2.1.1; spec §2.2]. Its log-parameters are those of the terms,
// concatenated in order.
type Sum struct{ terms }

// Product is the kernel k(x,y) = Π_j k_j(x,y). Products of valid kernels are
// valid [000 §2.1.1; spec §2.2]. Its log-parameters are those of the factors,
// concatenated in order.
type Product struct{ terms }

var (
	_ Kernel = (*Sum)(nil)
	_ Kernel = (*Product)(nil)
	_ Binder = (*Sum)(nil)
	_ Binder = (*Product)(nil)
)

// NewSum returns the sum of the given kernels, which it uses (not copies).
// It panics if no kernel is given.
func NewSum(ks ...Kernel) *Sum { return &Sum{newTerms("NewSum", ks)} }

// NewProduct returns the product of the given kernels, which it uses (not
// copies). It panics if no kernel is given.
func NewProduct(ks ...Kernel) *Product { return &Product{newTerms("NewProduct", ks)} }

// terms holds the parts of a composite kernel and the offsets of their
// parameters in the concatenated parameter vector.
type terms struct {
	ks  []Kernel
	off []int // off[j] is the first parameter of ks[j]; off[len(ks)] = total
}

func newTerms(who string, ks []Kernel) terms {
	if len(ks) == 0 {
		panic("kernel: " + who + " needs at least one kernel")
	}
	t := terms{ks: append([]Kernel(nil), ks...), off: make([]int, len(ks)+1)}
	for j, k := range ks {
		t.off[j+1] = t.off[j] + k.NumParams()
	}
	return t
}

func (t terms) clone() terms {
	c := terms{ks: make([]Kernel, len(t.ks)), off: append([]int(nil), t.off...)}
	for j, k := range t.ks {
		c.ks[j] = k.Clone()
	}
	return c
}

// Terms returns the parts of the composite kernel (not copies).
func (t terms) Terms() []Kernel { return append([]Kernel(nil), t.ks...) }

// NumParams implements Kernel.
func (t terms) NumParams() int { return t.off[len(t.ks)] }

// Params implements Kernel.
func (t terms) Params(dst []float64) []float64 {
	dst = resize(dst, t.NumParams())
	for j, k := range t.ks {
		k.Params(dst[t.off[j]:t.off[j+1]:t.off[j+1]])
	}
	return dst
}

// SetParams implements Kernel.
func (t terms) SetParams(p []float64) {
	if len(p) != t.NumParams() {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want %d", len(p), t.NumParams()))
	}
	for j, k := range t.ks {
		k.SetParams(p[t.off[j]:t.off[j+1]])
	}
}

// Bounds implements Kernel.
func (t terms) Bounds() []Bound {
	b := make([]Bound, 0, t.NumParams())
	for _, k := range t.ks {
		b = append(b, k.Bounds()...)
	}
	return b
}

func (t terms) checkParamDst(dst []float64) {
	if len(dst) != t.NumParams() {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want %d", len(dst), t.NumParams()))
	}
}

// Eval implements Kernel.
func (s *Sum) Eval(x, y []float64) float64 {
	var v float64
	for _, k := range s.ks {
		v += k.Eval(x, y)
	}
	return v
}

// ParamGrad implements Kernel; each term writes its own segment of dst.
func (s *Sum) ParamGrad(x, y, dst []float64) float64 {
	s.checkParamDst(dst)
	var v float64
	for j, k := range s.ks {
		v += k.ParamGrad(x, y, dst[s.off[j]:s.off[j+1]])
	}
	return v
}

// InputGrad implements Kernel. It allocates a scratch vector when there is
// more than one term, so that Sum holds no mutable state.
func (s *Sum) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	v := s.ks[0].InputGrad(x, y, dst)
	if len(s.ks) == 1 {
		return v
	}
	tmp := make([]float64, len(x))
	for _, k := range s.ks[1:] {
		v += k.InputGrad(x, y, tmp)
		for d, g := range tmp {
			dst[d] += g
		}
	}
	return v
}

// Clone implements Kernel.
func (s *Sum) Clone() Kernel { return &Sum{s.terms.clone()} }

// Eval implements Kernel.
func (p *Product) Eval(x, y []float64) float64 {
	v := 1.0
	for _, k := range p.ks {
		v *= k.Eval(x, y)
	}
	return v
}

// others returns, for each factor j, the product of the other factors'
// values, by prefix and suffix products (no division, so a zero factor is
// handled exactly).
func others(vals, o []float64) []float64 {
	o = o[:len(vals)]
	acc := 1.0
	for j, v := range vals {
		o[j] = acc
		acc *= v
	}
	acc = 1.0
	for j := len(vals) - 1; j >= 0; j-- {
		o[j] *= acc
		acc *= vals[j]
	}
	return o
}

// ParamGrad implements Kernel: ∂k/∂θ of factor j is (Π_{i≠j} k_i)·∂k_j/∂θ.
func (p *Product) ParamGrad(x, y, dst []float64) float64 {
	p.checkParamDst(dst)
	var vbuf [8]float64
	vals := vbuf[:0]
	for j, k := range p.ks {
		vals = append(vals, k.ParamGrad(x, y, dst[p.off[j]:p.off[j+1]]))
	}
	return p.paramGrad(vals, dst)
}

// paramGrad completes ParamGrad from the factors' values and their
// gradients, already in dst.
func (p *Product) paramGrad(vals, dst []float64) float64 {
	var obuf [8]float64
	o := obuf[:]
	if len(vals) > len(obuf) {
		o = make([]float64, len(vals))
	}
	o = others(vals, o)
	v := 1.0
	for j, val := range vals {
		v *= val
		seg := dst[p.off[j]:p.off[j+1]]
		for i := range seg {
			seg[i] *= o[j]
		}
	}
	return v
}

// InputGrad implements Kernel: ∇k = Σ_j (Π_{i≠j} k_i)·∇k_j. It allocates
// scratch space so that Product holds no mutable state.
func (p *Product) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	if len(p.ks) == 1 {
		return p.ks[0].InputGrad(x, y, dst)
	}
	vals := make([]float64, len(p.ks))
	for j, k := range p.ks {
		vals[j] = k.Eval(x, y)
	}
	o := others(vals, make([]float64, len(vals)))
	for d := range dst {
		dst[d] = 0
	}
	tmp := make([]float64, len(x))
	v := 1.0
	for j, k := range p.ks {
		v *= vals[j]
		k.InputGrad(x, y, tmp)
		for d, g := range tmp {
			dst[d] += o[j] * g
		}
	}
	return v
}

// Clone implements Kernel.
func (p *Product) Clone() Kernel { return &Product{p.terms.clone()} }

// bind returns the Grams of the parts on X.
func (t terms) bind(X [][]float64) []Gram {
	gs := make([]Gram, len(t.ks))
	for j, k := range t.ks {
		gs[j] = Bind(k, X)
	}
	return gs
}

// Bind implements Binder with the terms' Grams.
func (s *Sum) Bind(X [][]float64) Gram { return sumGram{s.terms, s.bind(X)} }

type sumGram struct {
	t  terms
	gs []Gram
}

func (g sumGram) Eval(i, j int) float64 {
	var v float64
	for _, h := range g.gs {
		v += h.Eval(i, j)
	}
	return v
}

func (g sumGram) ParamGrad(i, j int, dst []float64) float64 {
	var v float64
	for t, h := range g.gs {
		v += h.ParamGrad(i, j, dst[g.t.off[t]:g.t.off[t+1]])
	}
	return v
}

// Bind implements Binder with the factors' Grams.
func (p *Product) Bind(X [][]float64) Gram { return productGram{p, p.bind(X)} }

type productGram struct {
	p  *Product
	gs []Gram
}

func (g productGram) Eval(i, j int) float64 {
	v := 1.0
	for _, h := range g.gs {
		v *= h.Eval(i, j)
	}
	return v
}

func (g productGram) ParamGrad(i, j int, dst []float64) float64 {
	var vbuf [8]float64
	vals := vbuf[:0]
	for t, h := range g.gs {
		vals = append(vals, h.ParamGrad(i, j, dst[g.p.off[t]:g.p.off[t+1]]))
	}
	return g.p.paramGrad(vals, dst)
}
