package gp

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Fantasize returns a new GP with (X, y) appended as observations (y on the
// original scale), without refitting the hyper-parameters or the
// standardisation. It extends the Cholesky factor one row at a time
// (grow), with a further jitter on a new row that needs it. g itself is
// unchanged.
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
	xs := slices.Concat(g.x, xf)
	u, jitter, err := g.grow(xs, true)
	if err != nil {
		return nil, err
	}
	ys := slices.Grow(slices.Clone(g.y), q)
	for _, v := range y {
		// Clipped as Fit clips its targets: a finite 1e308 would otherwise
		// overflow to ±Inf once standardised and turn every prediction NaN.
		ys = append(ys, (min(max(v, -maxTarget), maxTarget)-g.offset)/g.scale)
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

// Extend returns the GP on g's inputs followed by X, with y the targets
// of all of them (g.Len()+len(X) values, on the original scale), at g's
// hyper-parameters and jitter: the model NewWithMean builds with g's
// kernel, noise and prior mean, the standardisation and c recomputed
// from y, but with g's factor grown by rows in O(n²) each instead of an
// O(n³) factorisation, equal up to rounding. It fails, and the caller
// factorises afresh, where a new row would need more jitter than g has.
// g itself is unchanged.
func (g *GP) Extend(X [][]float64, y []float64) (*GP, error) {
	if len(y) != len(g.x)+len(X) {
		return nil, fmt.Errorf("gp: Extend of %d observations by %d inputs with %d targets", len(g.x), len(X), len(y))
	}
	xs := g.x
	if len(X) > 0 {
		xf, err := copyInputs(X, y[len(g.x):], g.k)
		if err != nil {
			return nil, err
		}
		xs = slices.Concat(g.x, xf)
	} else if _, err := copyInputs(g.x, y, g.k); err != nil {
		return nil, err
	}
	u, jitter, err := g.grow(xs, false)
	if err != nil {
		return nil, err
	}
	ys, offset, scale := standardize(y)
	e := &GP{
		x: xs, y: ys, offset: offset, scale: scale,
		k: g.k, params: g.params, noise: g.noise, jitter: jitter,
		mean: g.mean, u: u,
	}
	if e.mean == MeanConstant {
		e.c = meanGLS(u, ys, make([]float64, len(ys)), make([]float64, len(ys)))
	}
	e.solveAlpha()
	return e, nil
}

// grow returns g's upper factor extended to the inputs xs, whose first
// g.Len() rows are g's [spec §1.2]: with c = U⁻ᵀ k(X_n, x), a new
// diagonal entry is sqrt(k(x,x) + σ_n² + δ − cᵀc), δ the jitter of g, so
// the result equals a factorisation of the augmented matrix with the
// same jitter. Where that square root's argument is not positive, guard
// adds a further jitter 1e-6·k(x,x)·10^t (t < 6) to that entry, and the
// jitter returned is the largest used; without guard, grow fails.
func (g *GP) grow(xs [][]float64, guard bool) (blas64.Triangular, float64, error) {
	n0, nn := len(g.x), len(xs)
	u := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: nn, Stride: nn, Data: make([]float64, nn*nn)}
	for i := range n0 {
		copy(u.Data[i*nn+i:i*nn+n0], g.u.Data[i*g.u.Stride+i:i*g.u.Stride+n0])
	}
	c := make([]float64, nn)
	jitter := g.jitter
	for m := n0; m < nn; m++ {
		xj := xs[m]
		for i := range m {
			c[i] = g.k.Eval(xs[i], xj)
		}
		// Solve on the leading m×m block, which shares u's stride.
		lead := blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: m, Stride: nn, Data: u.Data}
		blas64.Trsv(blas.Trans, lead, blas64.Vector{N: m, Data: c[:m], Inc: 1})
		kxx := g.k.Eval(xj, xj)
		d2 := kxx + g.noise + g.jitter - dot(c[:m], c[:m])
		if !(d2 > 0) {
			if !guard {
				return u, 0, fmt.Errorf("%w: new point %d needs more jitter than %.3g", ErrNotPositiveDefinite, m-n0, g.jitter)
			}
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
				return u, 0, fmt.Errorf("%w: fantasy point %d (nearly) duplicates an observation and the noise is too small (jitter up to %.3g)", ErrNotPositiveDefinite, m-n0, extra)
			}
			d2 += extra
			jitter = math.Max(jitter, g.jitter+extra)
		}
		for i := range m {
			u.Data[i*nn+m] = c[i]
		}
		u.Data[m*nn+m] = math.Sqrt(d2)
	}
	return u, jitter, nil
}
