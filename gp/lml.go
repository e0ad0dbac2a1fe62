package gp

import (
	"fmt"
	"math"
	"slices"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
)

var log2Pi = math.Log(2 * math.Pi)

// lmlWork evaluates the log marginal likelihood and its gradient on fixed
// data, reusing across evaluations one n×n buffer and the kernel's Gram on
// the data (kernel.Bind: what does not depend on the parameters is done
// once). It caches the last factorisation so that a gradient requested at
// the point whose value was just computed (the accepted point of a line
// search) costs only the inverse and the contraction. It is not safe for
// concurrent use.
type lmlWork struct {
	x  [][]float64
	y  []float64     // standardised targets
	k  kernel.Kernel // private clone
	g  kernel.Gram   // k on x
	nk int

	mean Mean      // MeanConstant: c is profiled at each evaluation
	r    []float64 // ỹ − c (MeanConstant)

	f     *factor
	alpha []float64 // A⁻¹(ỹ − c)
	pg    []float64 // ParamGrad scratch
	acc   []float64 // gradient accumulator

	last     []float64 // params of the cached factorisation
	lastLML  float64
	lastErr  error
	inverted bool // f holds A⁻¹ for last
	jitter   float64
}

func newLMLWork(x [][]float64, y []float64, k kernel.Kernel, mean Mean) *lmlWork {
	nk := k.NumParams()
	k = k.Clone()
	w := &lmlWork{
		x:     x,
		y:     y,
		k:     k,
		mean:  mean,
		g:     kernel.Bind(k, x),
		nk:    nk,
		f:     newFactor(len(x)),
		alpha: make([]float64, len(x)),
		pg:    make([]float64, nk),
		acc:   make([]float64, nk),
	}
	if mean == MeanConstant {
		w.r = make([]float64, len(x))
	}
	return w
}

// value returns the LML at log-params p (kernel params, then log noise).
func (w *lmlWork) value(p []float64) (float64, error) {
	if len(p) != w.nk+1 {
		panic(fmt.Sprintf("gp: %d log-parameters, want %d", len(p), w.nk+1))
	}
	if w.last != nil && slices.Equal(w.last, p) {
		return w.lastLML, w.lastErr
	}
	w.last = append(w.last[:0], p...)
	w.inverted = false
	w.lastLML, w.lastErr = w.compute(p)
	return w.lastLML, w.lastErr
}

func (w *lmlWork) compute(p []float64) (float64, error) {
	for _, v := range p[:w.nk] {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.Inf(-1), fmt.Errorf("%w: kernel log-parameters %v are not finite", ErrNotPositiveDefinite, p[:w.nk])
		}
	}
	w.k.SetParams(p[:w.nk])
	w.f.build(w.g.Eval)
	var err error
	w.jitter, err = w.f.factorize(math.Exp(p[w.nk]))
	if err != nil {
		return math.Inf(-1), err
	}
	u := w.f.u()
	y := w.y
	if w.mean == MeanConstant {
		// The LML at c = c*(θ), the profile likelihood. Its gradient in θ
		// is the gradient at c fixed to c* (envelope theorem, ∂L/∂c = 0
		// there), so valueGrad needs only α = A⁻¹(ỹ − c*).
		c := meanGLS(u, w.y, w.r, w.alpha)
		for i, v := range w.y {
			w.r[i] = v - c
		}
		y = w.r
	}
	copy(w.alpha, y)
	solve(u, w.alpha)
	// [000 Eq. 2.10]: L = −½ ỹᵀα − ½ log|A| − (n/2) log 2π, with ỹ − c
	// for ỹ under a constant mean.
	l := -0.5*floats.Dot(y, w.alpha) - 0.5*logDet(u) - 0.5*float64(len(w.x))*log2Pi
	if math.IsNaN(l) {
		return math.Inf(-1), fmt.Errorf("%w: log marginal likelihood is NaN", ErrNotPositiveDefinite)
	}
	return l, nil
}

// valueGrad returns the LML at p and writes its gradient into grad
// (len(p)): ∂L/∂θ_j = ½ tr((ααᵀ − A⁻¹) ∂A/∂θ_j) [spec §3.1; 002 Eq. 2.41].
// W = ααᵀ − A⁻¹ is contracted with ∂K/∂θ over i ≤ j, never materialising
// the n×n derivative matrices; for θ = log σ_n², ∂A/∂θ = σ_n² I.
func (w *lmlWork) valueGrad(p, grad []float64) (float64, error) {
	l, err := w.value(p)
	if err != nil {
		return l, err
	}
	if !w.inverted {
		if !w.f.inverse() {
			return math.Inf(-1), fmt.Errorf("%w: inverse failed", ErrNotPositiveDefinite)
		}
		w.inverted = true
	}
	n := len(w.x)
	inv := w.f.data
	acc, pg := w.acc, w.pg
	for j := range acc {
		acc[j] = 0
	}
	var trW float64
	for i := 0; i < n; i++ {
		ai := w.alpha[i]
		row := inv[i*n : i*n+n]
		wii := ai*ai - row[i]
		trW += wii
		w.g.ParamGrad(i, i, pg)
		floats.AddScaled(acc, 0.5*wii, pg)
		// Off-diagonal pairs count twice in the trace, cancelling the ½.
		for j := i + 1; j < n; j++ {
			wij := ai*w.alpha[j] - row[j]
			w.g.ParamGrad(i, j, pg)
			for t, g := range pg {
				acc[t] += wij * g
			}
		}
	}
	copy(grad, acc)
	grad[w.nk] = 0.5 * math.Exp(p[w.nk]) * trW
	return l, nil
}

// meanGLS returns the maximum-likelihood constant prior mean for targets y
// and the factor u of A = UᵀU: the generalised least-squares estimate
// c* = 1ᵀA⁻¹y / 1ᵀA⁻¹1, which zeroes ∂L/∂c = 1ᵀA⁻¹(y − c1)
// [spec gp-and-acquisitions §1.1, MeanConstant]. With v = U⁻ᵀ1 and
// w = U⁻ᵀy it is v·w / v·v: two triangular solves. a and b (len(y)) are
// scratch.
func meanGLS(u blas64.Triangular, y, a, b []float64) float64 {
	for i := range a {
		a[i] = 1
	}
	copy(b, y)
	blas64.Trsv(blas.Trans, u, blas64.Vector{N: len(a), Data: a, Inc: 1})
	blas64.Trsv(blas.Trans, u, blas64.Vector{N: len(b), Data: b, Inc: 1})
	return floats.Dot(a, b) / floats.Dot(a, a)
}

// logPrior returns Σ log p(u_j) over the parameters that have a prior and,
// when grad is not nil, adds the derivatives to grad.
func logPrior(p []float64, priors []Prior, noisePrior Prior, grad []float64) float64 {
	var lp float64
	add := func(j int, pr Prior) {
		if pr == nil {
			return
		}
		v, d := pr.LogDensity(p[j])
		lp += v
		if grad != nil {
			grad[j] += d
		}
	}
	for j, pr := range priors {
		add(j, pr)
	}
	add(len(p)-1, noisePrior)
	return lp
}
