package gp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// ErrNotPositiveDefinite is wrapped in the error returned when the Cholesky
// factorisation of the kernel matrix fails after all jitter tries.
var ErrNotPositiveDefinite = errors.New("gp: kernel matrix is not positive definite")

// Jitter schedule [spec §1.2, Decision]: δ_0 = 1e-6·mean(diag K), ×10, at
// most 6 tries, so δ ≤ 0.1·mean(diag K).
const (
	jitterRel   = 1e-6
	jitterGrow  = 10
	jitterTries = 6
)

// factor is an in-place Cholesky workspace in one n×n row-major buffer: the
// strict lower triangle keeps K, so that a failed factorisation can be
// retried with jitter without re-evaluating the kernel, while the upper
// triangle receives U (A = UᵀU) and later, for the gradient, A⁻¹. Calling
// LAPACK directly (rather than mat.Cholesky) avoids a copy and a condition
// estimate per factorisation.
type factor struct {
	n    int
	data []float64
	diag []float64 // diag(K)
}

func newFactor(n int) *factor {
	return &factor{n: n, data: make([]float64, n*n), diag: make([]float64, n)}
}

// build evaluates K(X, X) into the lower triangle, with eval(i, j) the
// kernel on X[i], X[j], called on i ≥ j only: a Gram's Eval for a fit,
// which evaluates K many times, or the kernel on the pair for a single
// build, which would not repay a Gram's set-up.
func (f *factor) build(eval func(i, j int) float64) {
	n := f.n
	for i := range n {
		row := f.data[i*n : i*n+i+1]
		for j := range row {
			row[j] = eval(i, j)
		}
		f.diag[i] = row[i]
	}
}

// prepare copies K into the upper triangle with diagonal diag(K) + shift.
func (f *factor) prepare(shift float64) {
	n := f.n
	const bs = 64 // cache blocking for the transpose
	for ib := 0; ib < n; ib += bs {
		for jb := ib; jb < n; jb += bs {
			for i := ib; i < min(ib+bs, n); i++ {
				for j := max(jb, i+1); j < min(jb+bs, n); j++ {
					f.data[i*n+j] = f.data[j*n+i]
				}
			}
		}
	}
	for i, v := range f.diag {
		f.data[i*n+i] = v + shift
	}
}

func (f *factor) sym() blas64.Symmetric {
	return blas64.Symmetric{Uplo: blas.Upper, N: f.n, Stride: f.n, Data: f.data}
}

// u returns the upper factor; valid after a successful factorize.
func (f *factor) u() blas64.Triangular {
	return blas64.Triangular{Uplo: blas.Upper, Diag: blas.NonUnit, N: f.n, Stride: f.n, Data: f.data}
}

// factorize factorises A = K + (shift + δ)I, first with δ = 0 and then with
// the jitter schedule, and returns the δ used.
func (f *factor) factorize(shift float64) (float64, error) {
	f.prepare(shift)
	if _, ok := lapack64.Potrf(f.sym()); ok {
		return 0, nil
	}
	var mean float64
	for _, v := range f.diag {
		mean += v
	}
	mean /= float64(f.n)
	if !(mean > 0) || math.IsInf(mean, 0) {
		return 0, f.notPD(shift, 0)
	}
	delta := jitterRel * mean
	for try := 0; try < jitterTries; try++ {
		f.prepare(shift + delta)
		if _, ok := lapack64.Potrf(f.sym()); ok {
			return delta, nil
		}
		if try < jitterTries-1 {
			delta *= jitterGrow
		}
	}
	return 0, f.notPD(shift, delta)
}

// inverse overwrites U with A⁻¹ (upper triangle).
func (f *factor) inverse() bool {
	_, ok := lapack64.Potri(f.u())
	return ok
}

// notPD builds an error that says why the factorisation failed and what to do.
func (f *factor) notPD(shift, delta float64) error {
	for i := 0; i < f.n; i++ {
		for _, v := range f.data[i*f.n : i*f.n+i+1] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: it has non-finite entries (check the kernel hyper-parameters and the inputs)", ErrNotPositiveDefinite)
			}
		}
	}
	if delta == 0 {
		return fmt.Errorf("%w: its diagonal (prior variance) is not positive; check the kernel hyper-parameters", ErrNotPositiveDefinite)
	}
	return fmt.Errorf("%w: Cholesky failed with noise variance %.3g and jitter up to %.3g; "+
		"the inputs probably contain duplicate or near-duplicate points while the noise is too small "+
		"(raise the noise or its lower bound, or remove duplicates)", ErrNotPositiveDefinite, shift, delta)
}

// solve overwrites b with A⁻¹b using the upper factor u.
func solve(u blas64.Triangular, b []float64) {
	v := blas64.Vector{N: len(b), Data: b, Inc: 1}
	blas64.Trsv(blas.Trans, u, v)
	blas64.Trsv(blas.NoTrans, u, v)
}

// logDet returns log|A| = 2 Σ log U_ii [spec §1.2].
func logDet(u blas64.Triangular) float64 {
	var s float64
	for i := 0; i < u.N; i++ {
		s += math.Log(u.Data[i*u.Stride+i])
	}
	return 2 * s
}
