package gp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Fantasize returns a new GP with (X, y) appended as observations (y on the
// original scale), without refitting the hyper-parameters or the
// standardisation. It extends the Cholesky factor one row at a time
// [spec §1.2]: with c = U⁻ᵀ k(X_n, x_f), the new diagonal entry is
// sqrt(k(x_f,x_f) + σ_n² + δ − cᵀc), where δ is the jitter of g (so the
// result equals a factorisation of the augmented matrix with the same
// jitter); if that square root's argument is not positive, a further jitter
// 1e-6·k(x_f,x_f)·10^t (t < 6) guards it. g itself is unchanged.
//
// A constant prior mean c (MeanConstant) is kept from g, not re-profiled:
// α = A⁻¹(ỹ − c) on the extended data, and LogMarginal is at that c.
//
// It serves Kriging Believer (y = predicted mean) and Constant Liar
// (y = a constant) for pending evaluations. y is clipped to ±1e150, as in
// Fit. Copying the factor costs
// O((n+q)²) for q fantasies.
func (g *GP) Fantasize(X [][]float64, y []float64) (*GP, error) {
	q := len(X)
	if len(y) != q {
		return nil, fmt.Errorf("gp: Fantasize with %d inputs but %d targets", q, len(y))
	}
	if q == 0 {
		c := *g
		return &c, nil
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gp: fantasy target y[%d] = %v is not finite", i, v)
		}
	}
	xf, err := copyRows(X, g.k)
	if err != nil {
		return nil, err
	}
	if len(xf[0]) != len(g.x[0]) {
		return nil, fmt.Errorf("gp: fantasy inputs have dimension %d, model has %d", len(xf[0]), len(g.x[0]))
	}
	n0 := len(g.x)
	nn := n0 + q
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: nn, Stride: nn, Data: make([]float64, nn*nn)}
	for i := 0; i < n0; i++ {
		copy(u.Data[i*nn+i:i*nn+n0], g.u.Data[i*g.u.Stride+i:i*g.u.Stride+n0])
	}
	xs := make([][]float64, nn)
	copy(xs, g.x)
	copy(xs[n0:], xf)
	ys := make([]float64, nn)
	copy(ys, g.y)
	c := make([]float64, nn)
	jitter := g.jitter
	for j := 0; j < q; j++ {
		m := n0 + j
		xj := xs[m]
		for i := 0; i < m; i++ {
			c[i] = g.k.Eval(xs[i], xj)
		}
		// Solve on the leading m×m block, which shares u's stride.
		lead := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: m, Stride: nn, Data: u.Data}
		blas64.Trsv(blas.Trans, lead, blas64.Vector{N: m, Data: c[:m], Inc: 1})
		kxx := g.k.Eval(xj, xj)
		d2 := kxx + g.noise + g.jitter - dot(c[:m], c[:m])
		if !(d2 > 0) {
			extra, ok := jitterRel*kxx, false
			for t := 0; t < jitterTries; t++ {
				if ok = d2+extra > 0; ok {
					break
				}
				if t < jitterTries-1 {
					extra *= jitterGrow
				}
			}
			if !ok {
				return nil, fmt.Errorf("%w: fantasy point %d (nearly) duplicates an observation and the noise is too small (jitter up to %.3g)", ErrNotPositiveDefinite, j, extra)
			}
			d2 += extra
			jitter = math.Max(jitter, g.jitter+extra)
		}
		for i := 0; i < m; i++ {
			u.Data[i*nn+m] = c[i]
		}
		u.Data[m*nn+m] = math.Sqrt(d2)
		// Clipped as Fit clips its targets: a finite 1e308 would otherwise
		// overflow to ±Inf once standardised and turn every prediction NaN.
		ys[m] = (min(max(y[j], -maxTarget), maxTarget) - g.offset) / g.scale
	}
	f := &GP{
		x: xs, y: ys, offset: g.offset, scale: g.scale,
		k:      g.k, // immutable once fitted, so shared
		params: g.params,
		noise:  g.noise,
		jitter: jitter,
		mean:   g.mean,
		c:      g.c, // the base fit's, as the other hyper-parameters are
		u:      u,
		priors: g.priors, noisePrior: g.noisePrior, fixNoise: g.fixNoise,
	}
	f.solveAlpha()
	return f, nil
}
