package gp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// GP is a fitted exact Gaussian-process regression model. It is immutable:
// Fantasize returns a new model.
type GP struct {
	x      [][]float64 // inputs (owned copies)
	y      []float64   // standardised targets ỹ
	offset float64     // y = offset + scale·ỹ
	scale  float64

	k      kernel.Kernel // private; never handed out
	params []float64     // log kernel params, then log noise
	noise  float64       // σ_n², standardised scale
	jitter float64

	mean Mean    // prior mean kind
	c    float64 // constant prior mean on the standardised scale (0 with MeanZero)

	u     blas64.Triangular // upper Cholesky factor, A = UᵀU
	alpha []float64         // A⁻¹ (ỹ − c)
	lml   float64

	priors     []Prior
	noisePrior Prior
	fixNoise   bool
}

// Mean selects the prior mean of the GP on the standardised targets
// [spec gp-and-acquisitions §1.1].
type Mean int

const (
	// MeanZero is the prior mean m ≡ 0, the default: the standardised
	// targets are centred already.
	MeanZero Mean = iota
	// MeanConstant is a constant prior mean m ≡ c, c a fitted
	// hyper-parameter, for CASMOPOLITAN parity (gpytorch's ConstantMean)
	// [spec §1.1; mixed-cocabo-casmopolitan §5.6; reference code:
	// xingchenwan/Casmopolitan]. c is profiled out: at given kernel and
	// noise parameters the maximum-likelihood c is the generalised
	// least-squares estimate c* = 1ᵀA⁻¹ỹ / 1ᵀA⁻¹1 (A = K + σ_n²I), so the
	// optimiser searches the same parameters as with MeanZero. Like
	// gpytorch, the model treats c as a point estimate, not integrated
	// out: the posterior variance is that of the zero-mean GP.
	MeanConstant
)

// New builds a GP with the given kernel (cloned, its current parameters
// used as they are) and noise variance on the standardised scale, without
// optimising anything. y is standardised as in Fit. The prior mean is 0.
func New(X [][]float64, y []float64, k kernel.Kernel, noise float64) (*GP, error) {
	return NewWithMean(X, y, k, noise, MeanZero)
}

// NewWithMean is New with the prior mean mean; with MeanConstant, c is
// the maximum-likelihood value at the given hyper-parameters, as Fit sets it.
func NewWithMean(X [][]float64, y []float64, k kernel.Kernel, noise float64, mean Mean) (*GP, error) {
	if err := mean.check(); err != nil {
		return nil, err
	}
	if k == nil {
		return nil, errors.New("gp: New with a nil kernel")
	}
	if math.IsNaN(noise) || noise < 0 || math.IsInf(noise, 0) {
		return nil, fmt.Errorf("gp: noise variance %v must be finite and >= 0", noise)
	}
	xs, err := copyInputs(X, y, k)
	if err != nil {
		return nil, err
	}
	ys, offset, scale := standardize(y)
	return newGP(xs, ys, offset, scale, k.Clone(), math.Log(noise), mean)
}

func (m Mean) check() error {
	if m != MeanZero && m != MeanConstant {
		return fmt.Errorf("gp: unknown prior mean %d", m)
	}
	return nil
}

// newGP factorises the model at the kernel's current params and log noise,
// with the prior mean mean (c profiled for MeanConstant). It takes
// ownership of its arguments.
func newGP(x [][]float64, y []float64, offset, scale float64, k kernel.Kernel, logNoise float64, mean Mean) (*GP, error) {
	noise := math.Exp(logNoise)
	f := newFactor(len(x))
	f.build(func(i, j int) float64 { return k.Eval(x[i], x[j]) })
	jitter, err := f.factorize(noise)
	if err != nil {
		return nil, err
	}
	g := &GP{
		x: x, y: y, offset: offset, scale: scale,
		k:      k,
		params: append(k.Params(nil), logNoise),
		noise:  noise,
		jitter: jitter,
		mean:   mean,
		u:      f.u(),
	}
	if mean == MeanConstant {
		g.c = meanGLS(g.u, y, make([]float64, len(y)), make([]float64, len(y)))
	}
	g.solveAlpha()
	return g, nil
}

// solveAlpha sets α = A⁻¹(ỹ − c) and the LML (at c) from the factor u.
func (g *GP) solveAlpha() {
	g.alpha = append(g.alpha[:0], g.y...)
	if g.mean == MeanConstant {
		for i := range g.alpha {
			g.alpha[i] -= g.c
		}
	}
	v := blas64.Vector{N: len(g.alpha), Data: g.alpha, Inc: 1}
	blas64.Trsv(blas.Trans, g.u, v)
	// (ỹ−c)ᵀA⁻¹(ỹ−c) = ‖U⁻ᵀ(ỹ−c)‖².
	quad := dot(g.alpha, g.alpha)
	blas64.Trsv(blas.NoTrans, g.u, v)
	g.lml = -0.5*quad - 0.5*logDet(g.u) - 0.5*float64(len(g.y))*log2Pi
}

// copyInputs validates X and y and returns a contiguous copy of X.
func copyInputs(X [][]float64, y []float64, k kernel.Kernel) ([][]float64, error) {
	if len(X) == 0 {
		return nil, errors.New("gp: no observations")
	}
	if len(y) != len(X) {
		return nil, fmt.Errorf("gp: %d inputs but %d targets", len(X), len(y))
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gp: target y[%d] = %v is not finite; drop failed evaluations before fitting", i, v)
		}
	}
	return copyRows(X, k)
}

// copyRows validates the rows of X (common length, finite, matching the
// kernel's dimension when it declares one) and copies them contiguously.
func copyRows(X [][]float64, k kernel.Kernel) ([][]float64, error) {
	d := len(X[0])
	if d == 0 {
		return nil, errors.New("gp: inputs have dimension 0")
	}
	if kd, ok := k.(interface{ Dim() int }); ok && kd.Dim() != d {
		return nil, fmt.Errorf("gp: inputs have dimension %d but the kernel expects %d", d, kd.Dim())
	}
	buf := make([]float64, 0, len(X)*d)
	out := make([][]float64, len(X))
	for i, row := range X {
		if len(row) != d {
			return nil, fmt.Errorf("gp: input %d has dimension %d, want %d", i, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("gp: input x[%d][%d] = %v is not finite", i, j, v)
			}
		}
		buf = append(buf, row...)
		out[i] = buf[len(buf)-d : len(buf) : len(buf)]
	}
	return out, nil
}

// maxTarget bounds the targets a GP takes: beyond, the variance on the
// original scale (sd² of the targets times a standardised variance)
// overflows, and every acquisition value with it. A diverged training run
// that prints 1e300 would otherwise turn the samplers random for the rest
// of the study; clipped, it is merely very bad.
const maxTarget = 1e150

// standardize returns ỹ = (y − mean)/sd with the unbiased sd (sd := 1 when
// it is below 1e-12 or n = 1) [spec §1.3, Decision], y clipped to
// ±maxTarget.
func standardize(y []float64) (ys []float64, offset, scale float64) {
	ys = make([]float64, len(y))
	for i, v := range y {
		ys[i] = min(max(v, -maxTarget), maxTarget)
	}
	n := float64(len(ys))
	for _, v := range ys {
		offset += v
	}
	offset /= n
	var ss float64
	for _, v := range ys {
		ss += (v - offset) * (v - offset)
	}
	scale = 1
	if len(ys) > 1 {
		if sd := math.Sqrt(ss / (n - 1)); sd >= 1e-12 {
			scale = sd
		}
	}
	for i, v := range ys {
		ys[i] = (v - offset) / scale
	}
	return ys, offset, scale
}

// Weights returns α = A⁻¹(ỹ − c), the weights of the posterior mean on the
// standardised scale, μ̃(x) = c + Σ_i α_i k(x, x_i): what a derivative of
// the mean with respect to anything the kernel depends on needs (the WL
// feature gradients of NAS-BOWL, 000 Eq. 7.6).
func (g *GP) Weights() []float64 { return slices.Clone(g.alpha) }

// Len returns the number of observations (fantasies included).
func (g *GP) Len() int { return len(g.x) }

// Mean returns the constant prior mean c on the standardised scale (c = 0
// with MeanZero); far from the data the posterior mean reverts to
// offset + scale·c on the original scale.
func (g *GP) Mean() float64 { return g.c }

// Kernel returns a copy of the fitted kernel.
func (g *GP) Kernel() kernel.Kernel { return g.k.Clone() }

// Noise returns the fitted noise variance σ_n² on the standardised scale.
func (g *GP) Noise() float64 { return g.noise }

// NoiseVarY returns the noise variance on the original scale, σ_n²·sd².
func (g *GP) NoiseVarY() float64 { return g.noise * g.scale * g.scale }

// Params returns the log kernel parameters followed by the log noise
// variance; pass it as Config.Warm to the next Fit.
func (g *GP) Params() []float64 { return append([]float64(nil), g.params...) }

// LogMarginal returns the log marginal likelihood at the fitted parameters
// (and c), on the standardised scale (no prior term).
func (g *GP) LogMarginal() float64 { return g.lml }

// Jitter returns the jitter that the Cholesky factorisation needed (0 if none).
func (g *GP) Jitter() float64 { return g.jitter }

// Standardization returns the offset and scale with y = offset + scale·ỹ.
func (g *GP) Standardization() (offset, scale float64) { return g.offset, g.scale }

// LogMarginalGrad evaluates LML + log prior and its gradient at log-params p
// (kernel params then log noise) on this model's data, with this model's
// priors. The noise prior counts only when the noise is optimised. With
// MeanConstant, c is profiled at p (the objective Fit maximises). It panics
// if len(p) or len(grad) differ from len(g.Params()).
func (g *GP) LogMarginalGrad(p []float64, grad []float64) (float64, error) {
	if len(p) != len(g.params) || len(grad) != len(p) {
		panic(fmt.Sprintf("gp: LogMarginalGrad with %d params and %d gradient entries, want %d", len(p), len(grad), len(g.params)))
	}
	w := newLMLWork(g.x, g.y, g.k, g.mean)
	l, err := w.valueGrad(p, grad)
	if err != nil {
		return l, err
	}
	np := g.noisePrior
	if g.fixNoise {
		np = nil
	}
	return l + logPrior(p, g.priors, np, grad), nil
}
