package kernel

import (
	"fmt"
	"math"
)

// Default outer signal variance of Mixture and its bounds: the ScaleKernel
// outputscale of CASMOPOLITAN, init 1 in [0.5, 5] [mixed spec §3.2, §5.6;
// reference code: xingchenwan/Casmopolitan].
const (
	mixtureVarInit = 1.0
	mixtureVarLo   = 0.5
	mixtureVarHi   = 5.0
)

var (
	_ Kernel = (*Mixture)(nil)
	_ Binder = (*Mixture)(nil)
)

// Mixture is the CoCaBO mixture of a categorical kernel k_h and a continuous
// kernel k_x [000 Eq. 5.10; 002 Eqs. 5.3, 5.6; 004 Eq. 4.15]:
//
//	k_z(z, z') = s² [ (1 − λ)(k_h(z, z') + k_x(z, z')) + λ k_h(z, z') k_x(z, z') ],  λ ∈ [0, 1].
//
// Both parts receive the whole input vector; wrap them in Subset (or give
// Overlap/ExpOverlap the categorical columns) to let each see its own
// columns. λ = 0 is the sum only, λ = 1 the product only; the mixture is
// PSD for every λ in [0, 1] as a sum of products of kernels [000 Lemma 1].
//
// Parameters, in order: those of k_h, those of k_x, then λ if it is learned,
// then log s² unless the outer variance is fixed.
//
// λ breaks the log convention of this package: it is stored and optimised
// raw, with Bound{0, 1}, so that package gp's box optimiser works on λ
// directly [mixed spec §3.3, Decision]. SetParams and SetLambda clamp λ into
// [0, 1].
//
// The outer variance s² is learned by default, initial 1 with bounds
// [0.5, 5] (CASMOPOLITAN's outputscale, mixed spec §5.6). CoCaBO's code
// fixes it at 1 (mixed spec §4.1): call SetFixedVariance(1). The inner kernels
// should then not both carry a free signal variance, or the parameters are
// not identifiable (e.g. Stationary.SetBounds with a variance bound [1, 1]).
//
// SetSumHalf(true) selects the CoCaBO code's form
// s²[(1 − λ)·0.5·(k_h + k_x) + λ k_h k_x] [reference code:
// rubinxin/CoCaBO_code]; the default is the thesis form without 0.5.
//
// InputGrad allocates a scratch vector so that Mixture holds no mutable
// state.
type Mixture struct {
	kh, kx      Kernel
	lambda      float64
	learnLambda bool
	logVar      float64
	s2          float64 // exp(logVar), kept by setLogVar
	varBound    Bound   // log units
	fixVar      bool
	sumHalf     bool
}

// NewMixture returns the mixture of kh (categorical) and kx (continuous) with
// weight lambda, learned as a hyper-parameter when learnLambda is true. It
// uses kh and kx (it does not copy them). It panics if lambda is not in
// [0, 1].
func NewMixture(kh, kx Kernel, lambda float64, learnLambda bool) *Mixture {
	if !(lambda >= 0 && lambda <= 1) {
		panic(fmt.Sprintf("kernel: NewMixture with lambda %v outside [0, 1]", lambda))
	}
	m := &Mixture{
		kh: kh, kx: kx,
		lambda:      lambda,
		learnLambda: learnLambda,
		varBound:    logBound(Bound{mixtureVarLo, mixtureVarHi}),
	}
	m.setLogVar(math.Log(mixtureVarInit))
	return m
}

func (m *Mixture) setLogVar(v float64) { m.logVar, m.s2 = v, math.Exp(v) }

// Parts returns k_h and k_x (not copies).
func (m *Mixture) Parts() (kh, kx Kernel) { return m.kh, m.kx }

// Lambda returns the mixture weight λ.
func (m *Mixture) Lambda() float64 { return m.lambda }

// SetLambda sets λ, clamped into [0, 1].
func (m *Mixture) SetLambda(lambda float64) { m.lambda = clamp01(lambda) }

// LearnLambda reports whether λ is a hyper-parameter.
func (m *Mixture) LearnLambda() bool { return m.learnLambda }

// Variance returns the outer signal variance s².
func (m *Mixture) Variance() float64 { return m.s2 }

// VarianceFixed reports whether s² is fixed (not a hyper-parameter).
func (m *Mixture) VarianceFixed() bool { return m.fixVar }

// SetFixedVariance fixes the outer variance at s2 > 0 and removes log s²
// from the parameters (CoCaBO code: s2 = 1). It panics unless s2 > 0.
func (m *Mixture) SetFixedVariance(s2 float64) {
	if !(s2 > 0) || math.IsInf(s2, 0) {
		panic(fmt.Sprintf("kernel: SetFixedVariance(%v): want a finite value > 0", s2))
	}
	m.setLogVar(math.Log(s2))
	m.fixVar = true
}

// SetLearnedVariance makes the outer variance a hyper-parameter with value
// s2 and bounds b, both in natural units. It panics unless s2 > 0 and
// 0 < b.Lo ≤ b.Hi.
func (m *Mixture) SetLearnedVariance(s2 float64, b Bound) {
	if !(s2 > 0) || math.IsInf(s2, 0) {
		panic(fmt.Sprintf("kernel: SetLearnedVariance(%v): want a finite value > 0", s2))
	}
	m.varBound = logBound(b)
	m.setLogVar(math.Log(s2))
	m.fixVar = false
}

// SumHalf reports whether the CoCaBO code's 0.5 factor on the sum is used.
func (m *Mixture) SumHalf() bool { return m.sumHalf }

// SetSumHalf selects s²[(1 − λ)·0.5·(k_h + k_x) + λ k_h k_x] (true) or the
// thesis form without 0.5 (false, the default).
func (m *Mixture) SetSumHalf(on bool) { m.sumHalf = on }

func clamp01(v float64) float64 {
	if math.IsNaN(v) {
		panic("kernel: Mixture lambda is NaN")
	}
	return math.Max(0, math.Min(1, v))
}

// layout returns the parameter counts of k_h and k_x.
func (m *Mixture) layout() (nh, nx int) { return m.kh.NumParams(), m.kx.NumParams() }

// NumParams implements Kernel.
func (m *Mixture) NumParams() int {
	nh, nx := m.layout()
	n := nh + nx
	if m.learnLambda {
		n++
	}
	if !m.fixVar {
		n++
	}
	return n
}

// Params implements Kernel.
func (m *Mixture) Params(dst []float64) []float64 {
	nh, nx := m.layout()
	dst = resize(dst, m.NumParams())
	m.kh.Params(dst[:nh:nh])
	m.kx.Params(dst[nh : nh+nx : nh+nx])
	i := nh + nx
	if m.learnLambda {
		dst[i] = m.lambda
		i++
	}
	if !m.fixVar {
		dst[i] = m.logVar
	}
	return dst
}

// SetParams implements Kernel; λ is clamped into [0, 1].
func (m *Mixture) SetParams(p []float64) {
	if len(p) != m.NumParams() {
		panic(fmt.Sprintf("kernel: SetParams with %d values, want %d", len(p), m.NumParams()))
	}
	nh, nx := m.layout()
	m.kh.SetParams(p[:nh])
	m.kx.SetParams(p[nh : nh+nx])
	i := nh + nx
	if m.learnLambda {
		m.lambda = clamp01(p[i])
		i++
	}
	if !m.fixVar {
		m.setLogVar(p[i])
	}
}

// Bounds implements Kernel. λ's bound is Bound{0, 1} in natural units.
func (m *Mixture) Bounds() []Bound {
	b := make([]Bound, 0, m.NumParams())
	b = append(b, m.kh.Bounds()...)
	b = append(b, m.kx.Bounds()...)
	if m.learnLambda {
		b = append(b, Bound{0, 1})
	}
	if !m.fixVar {
		b = append(b, m.varBound)
	}
	return b
}

// Clone implements Kernel.
func (m *Mixture) Clone() Kernel {
	c := *m
	c.kh, c.kx = m.kh.Clone(), m.kx.Clone()
	return &c
}

// sumWeight returns the factor on (k_h + k_x): 1 or 0.5 with SumHalf.
func (m *Mixture) sumWeight() float64 {
	if m.sumHalf {
		return 0.5
	}
	return 1
}

func (m *Mixture) combine(vh, vx float64) float64 {
	return m.s2 * ((1-m.lambda)*m.sumWeight()*(vh+vx) + m.lambda*vh*vx)
}

// Eval implements Kernel.
func (m *Mixture) Eval(x, y []float64) float64 {
	return m.combine(m.kh.Eval(x, y), m.kx.Eval(x, y))
}

// ParamGrad implements Kernel [000 Eqs. C.12–C.14], with c = 1 (0.5 with
// SumHalf):
//
//	∂k_z/∂θ_h = s² ((1−λ)c + λ k_x) ∂k_h/∂θ_h
//	∂k_z/∂θ_x = s² ((1−λ)c + λ k_h) ∂k_x/∂θ_x
//	∂k_z/∂λ   = s² (−c(k_h + k_x) + k_h k_x)
//	∂k_z/∂(log s²) = k_z.
func (m *Mixture) ParamGrad(x, y, dst []float64) float64 {
	if len(dst) != m.NumParams() {
		panic(fmt.Sprintf("kernel: ParamGrad dst of length %d, want %d", len(dst), m.NumParams()))
	}
	nh, nx := m.layout()
	vh := m.kh.ParamGrad(x, y, dst[:nh])
	vx := m.kx.ParamGrad(x, y, dst[nh:nh+nx])
	return m.paramGrad(vh, vx, dst)
}

// paramGrad completes ParamGrad from the parts' values vh, vx and their
// gradients, already in dst.
func (m *Mixture) paramGrad(vh, vx float64, dst []float64) float64 {
	nh, nx := m.layout()
	s2, c, l := m.s2, m.sumWeight(), m.lambda
	wh := s2 * ((1-l)*c + l*vx)
	wx := s2 * ((1-l)*c + l*vh)
	for i := range dst[:nh] {
		dst[i] *= wh
	}
	for i := nh; i < nh+nx; i++ {
		dst[i] *= wx
	}
	v := m.combine(vh, vx)
	i := nh + nx
	if m.learnLambda {
		dst[i] = s2 * (-c*(vh+vx) + vh*vx)
		i++
	}
	if !m.fixVar {
		dst[i] = v
	}
	return v
}

// Bind implements Binder with the Grams of the two parts.
func (m *Mixture) Bind(X [][]float64) Gram {
	return mixtureGram{m, Bind(m.kh, X), Bind(m.kx, X)}
}

type mixtureGram struct {
	m      *Mixture
	gh, gx Gram
}

func (g mixtureGram) Eval(i, j int) float64 { return g.m.combine(g.gh.Eval(i, j), g.gx.Eval(i, j)) }

func (g mixtureGram) ParamGrad(i, j int, dst []float64) float64 {
	nh, nx := g.m.layout()
	vh := g.gh.ParamGrad(i, j, dst[:nh])
	vx := g.gx.ParamGrad(i, j, dst[nh:nh+nx])
	return g.m.paramGrad(vh, vx, dst)
}

// InputGrad implements Kernel:
// ∇k_z = s² [((1−λ)c + λ k_x) ∇k_h + ((1−λ)c + λ k_h) ∇k_x].
func (m *Mixture) InputGrad(x, y, dst []float64) float64 {
	if len(dst) != len(x) {
		panic(fmt.Sprintf("kernel: InputGrad dst of length %d, want %d", len(dst), len(x)))
	}
	tmp := make([]float64, len(x))
	vh := m.kh.InputGrad(x, y, dst)
	vx := m.kx.InputGrad(x, y, tmp)
	s2, c, l := m.s2, m.sumWeight(), m.lambda
	wh := s2 * ((1-l)*c + l*vx)
	wx := s2 * ((1-l)*c + l*vh)
	for d := range dst {
		dst[d] = wh*dst[d] + wx*tmp[d]
	}
	return m.combine(vh, vx)
}
