package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// varFloor is the relative clamp of the latent variance, σ² ≥ 1e-12·k(x,x)
// [spec §1.2]; k(x,x) = s_f² for stationary kernels.
const varFloor = 1e-12

func (g *GP) checkDim(x []float64) {
	if len(x) != len(g.x[0]) {
		panic(fmt.Sprintf("gp: input of dimension %d, model has %d", len(x), len(g.x[0])))
	}
}

// Predict returns the posterior mean and latent variance of f(x) on the
// original y scale [000 Eqs. 2.6–2.8]; under a constant mean the
// standardised mean is c + k_*ᵀA⁻¹(ỹ − c). The variance of a noisy
// observation is varF + NoiseVarY(). It panics if len(x) does not match
// the inputs.
func (g *GP) Predict(x []float64) (mean, varF float64) {
	g.checkDim(x)
	return g.original(g.predictOne(g.k, x))
}

// predictOne returns, on the standardised scale, k_*ᵀα, k(x,x) and
// q = ‖U⁻ᵀ k_*‖² for the kernel k (the GP's, or one additive term).
func (g *GP) predictOne(k kernel.Kernel, x []float64) (mu, kxx, q float64) {
	v := make([]float64, len(g.x))
	for i, xi := range g.x {
		v[i] = k.Eval(xi, x)
		mu += v[i] * g.alpha[i]
	}
	// σ² = k(x,x) − ‖U⁻ᵀ k_*‖².
	blas64.Trsv(blas.Trans, g.u, blas64.Vector{N: len(v), Data: v, Inc: 1})
	return mu, k.Eval(x, x), dot(v, v)
}

// original maps the standardised-scale posterior back to the original y
// scale: mean offset + scale·(c + μ̃) with μ̃ = k_*ᵀα (c = 0 unless
// MeanConstant; c + μ̃ is μ̃ bit for bit then), variance
// scale²·(k(x,x) − q) with q = ‖U⁻ᵀ k_*‖², clamped below at
// varFloor·k(x,x) [spec §1.2]. The variance does not depend on c, a point
// estimate.
func (g *GP) original(mu, kxx, q float64) (mean, varF float64) {
	return g.offset + g.scale*(g.c+mu), g.scale * g.scale * math.Max(kxx-q, varFloor*kxx)
}

// PredictGrad is Predict that also writes the gradients of the mean and of
// the latent variance with respect to x into dmean and dvar (each len(x), or
// nil to skip) [spec §1.2]:
//
//	∇μ = J(x)ᵀα,   ∇σ² = ∇_x k(x,x) − 2 J(x)ᵀ A⁻¹ k_*,
//
// with J(x) = ∂k(X, x)/∂x. Where the variance is clamped, dvar is 0.
func (g *GP) PredictGrad(x, dmean, dvar []float64) (mean, varF float64) {
	mu, kxx, q := g.predictGrad(g.k, x, dmean, dvar)
	return g.original(mu, kxx, q)
}

// predictGrad is PredictGrad for the kernel k, the GP's or one of its
// terms (PredictTerm): it returns μ̃ = k(x, X)α, k(x, x) and
// q = k(x, X)A⁻¹k(X, x) on the standardised scale and writes the
// gradients of the mean and latent variance on the original scale.
func (g *GP) predictGrad(k kernel.Kernel, x, dmean, dvar []float64) (mu, kxx, q float64) {
	g.checkDim(x)
	n, d := len(g.x), len(x)
	if (dmean != nil && len(dmean) != d) || (dvar != nil && len(dvar) != d) {
		panic(fmt.Sprintf("gp: PredictGrad gradient buffers of length %d and %d, want %d", len(dmean), len(dvar), d))
	}
	kx := make([]float64, n)
	jac := make([]float64, n*d)
	for i, xi := range g.x {
		// k is symmetric, so ∂k(x_i, x)/∂x = ∂k(x, x_i)/∂x.
		kx[i] = k.InputGrad(x, xi, jac[i*d:(i+1)*d])
		mu += kx[i] * g.alpha[i]
	}
	w := blas64.Vector{N: n, Data: kx, Inc: 1}
	blas64.Trsv(blas.Trans, g.u, w) // w = U⁻ᵀ k_*
	kxx, q = k.Eval(x, x), dot(kx, kx)
	clamped := kxx-q < varFloor*kxx
	s2 := g.scale * g.scale
	if dmean != nil {
		for j := range dmean {
			dmean[j] = 0
		}
		for i := 0; i < n; i++ {
			axpy(g.scale*g.alpha[i], jac[i*d:(i+1)*d], dmean)
		}
	}
	if dvar != nil {
		if clamped {
			for j := range dvar {
				dvar[j] = 0
			}
			return mu, kxx, q
		}
		// ∇_x k(x,x) = 2 ∂₁k(x,x) for a symmetric kernel (0 if stationary).
		k.InputGrad(x, x, dvar)
		for j := range dvar {
			dvar[j] *= 2 * s2
		}
		blas64.Trsv(blas.NoTrans, g.u, w) // w = A⁻¹ k_*
		for i := 0; i < n; i++ {
			axpy(-2*s2*kx[i], jac[i*d:(i+1)*d], dvar)
		}
	}
	return mu, kxx, q
}

// MeanGrad returns the posterior mean at x on the original y scale and
// writes its gradient ∇μ = J(x)ᵀα into dmean (len(x)): PredictGrad's mean
// part in O(n·d), without the triangular solve the variance needs. The
// Lipschitz estimates of local penalisation maximise ‖∇μ‖ with many calls
// (async-batch-playbook.md §4).
func (g *GP) MeanGrad(x, dmean []float64) float64 {
	g.checkDim(x)
	if len(dmean) != len(x) {
		panic(fmt.Sprintf("gp: MeanGrad gradient buffer of length %d, want %d", len(dmean), len(x)))
	}
	for j := range dmean {
		dmean[j] = 0
	}
	jac := make([]float64, len(x))
	var mu float64
	for i, xi := range g.x {
		mu += g.k.InputGrad(x, xi, jac) * g.alpha[i]
		axpy(g.scale*g.alpha[i], jac, dmean)
	}
	return g.offset + g.scale*(g.c+mu)
}

// PredictBatch writes the posterior mean and latent variance at each row of
// X into mean and varF (len(X) each): the values Predict returns (bit for
// bit with gonum's BLAS, the default), at a fraction of the cost. It
// solves U⁻ᵀ K(X_train, X) for blocks of test points at once, so U is read
// once per block rather than once per point and the inner loops run over
// contiguous rows [spec §1.2].
func (g *GP) PredictBatch(X [][]float64, mean, varF []float64) {
	g.batch(g.k, g.original, X, mean, varF)
}

// batch is PredictBatch for the kernel k, finish mapping each point's
// (k_*ᵀα, k(x,x), q) to the returned mean and variance.
func (g *GP) batch(k kernel.Kernel, finish func(mu, kxx, q float64) (float64, float64), X [][]float64, mean, varF []float64) {
	m := len(X)
	if len(mean) != m || len(varF) != m {
		panic(fmt.Sprintf("gp: PredictBatch with %d points but %d means and %d variances", m, len(mean), len(varF)))
	}
	for _, x := range X {
		g.checkDim(x)
	}
	// Blocks are independent and write disjoint parts of mean and varF, so
	// they run on all cores with the same results.
	blocks := (m + blockSize - 1) / blockSize
	workers := min(runtime.GOMAXPROCS(0), blocks)
	run := func(w int) {
		buf := make([]float64, len(g.x)*min(m, blockSize))
		for b := w; b < blocks; b += workers {
			lo, hi := b*blockSize, min((b+1)*blockSize, m)
			g.predictBlock(k, finish, X[lo:hi], mean[lo:hi], varF[lo:hi], buf)
		}
	}
	if workers <= 1 {
		run(0)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { run(w) })
	}
	wg.Wait()
}

const (
	// blockSize is the number of test points PredictBatch solves together.
	// In a sweep from 32 to 512 with BenchmarkPredict's data (n = 100, 200
	// and 1000), 256 and 512 were fastest, within 3% of each other; 256
	// keeps the scratch at 2 MB for n = 1000.
	blockSize = 256
	// minBlockSize is the block size below which points are predicted one
	// by one: each row update is a call, and at 16 points a block is at
	// most 10% faster than Predict (BenchmarkPredict, m = 16).
	minBlockSize = 16
)

// predictBlock is PredictBatch for one block of w points, with buf (at least
// n·w long) as scratch for V = U⁻ᵀ K(X_train, X).
func (g *GP) predictBlock(k kernel.Kernel, finish func(mu, kxx, q float64) (float64, float64), X [][]float64, mean, varF, buf []float64) {
	n, w := len(g.x), len(X)
	if w < minBlockSize {
		for j, x := range X {
			mean[j], varF[j] = finish(g.predictOne(k, x))
		}
		return
	}
	v := buf[:n*w]
	clear(mean)
	clear(varF)
	for i, xi := range g.x {
		row := v[i*w : (i+1)*w]
		for j, x := range X {
			row[j] = k.Eval(xi, x)
		}
		axpy(g.alpha[i], row, mean) // μ = K(X, X_train) α, summed over i in order
	}
	g.solveBlock(v, w)
	for i := range n {
		for j, t := range v[i*w : (i+1)*w] {
			varF[j] += t * t // ‖U⁻ᵀ k_*‖², summed over i in order
		}
	}
	for j, x := range X {
		mean[j], varF[j] = finish(mean[j], k.Eval(x, x), varF[j])
	}
}

// solveBlock overwrites the n×w row-major block v with U⁻ᵀ v. With gonum's
// BLAS it applies to each column the operations Trsv applies in Predict,
// in the same order and with a division by the diagonal (Trsm multiplies
// by its reciprocal), so each column is exactly Predict's. Another BLAS
// (-tags openblas) orders its sums its own way anyway, and there one Trsm
// beats a cgo call per row.
func (g *GP) solveBlock(v []float64, w int) {
	n, u := len(g.x), g.u
	if _, native := blas64.Implementation().(gonum.Implementation); !native {
		blas64.Trsm(blas.Left, blas.Trans, 1, u, blas64.General{Rows: n, Cols: w, Stride: w, Data: v})
		return
	}
	for i := range n {
		row := v[i*w : (i+1)*w]
		d := u.Data[i*u.Stride+i]
		for j := range row {
			row[j] /= d
		}
		vi := blas64.Vector{N: w, Data: row, Inc: 1}
		for k := i + 1; k < n; k++ {
			blas64.Axpy(-u.Data[i*u.Stride+k], vi, blas64.Vector{N: w, Data: v[k*w : (k+1)*w], Inc: 1})
		}
	}
}

// solveCross returns V = U⁻ᵀ K(X_train, X) (n×m).
func (g *GP) solveCross(X [][]float64) *mat.Dense {
	v := kernel.Cross(g.k, g.x, X)
	blas64.Trsm(blas.Left, blas.Trans, 1, g.u, v.RawMatrix())
	return v
}

// Cov returns the joint posterior covariance of f at the rows of X on the
// original scale, K_tt − VᵀV with V = U⁻ᵀ K(X_train, X) [spec §1.2]. Its
// diagonal is clamped as in Predict.
func (g *GP) Cov(X [][]float64) *mat.SymDense {
	m := len(X)
	if m == 0 {
		return &mat.SymDense{}
	}
	for _, x := range X {
		g.checkDim(x)
	}
	c := kernel.Matrix(g.k, X)
	prior := make([]float64, m)
	for i := range prior {
		prior[i] = c.At(i, i)
	}
	c.SymRankK(c, -1, g.solveCross(X).T())
	s2 := g.scale * g.scale
	raw := c.RawSymmetric()
	for i := 0; i < m; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+m]
		row[i] = math.Max(row[i], varFloor*prior[i])
		for j := i; j < m; j++ {
			row[j] *= s2
		}
	}
	return c
}

// Sample draws n joint posterior samples of f at the rows of X (original
// scale), result[s][i]. The Cholesky factor of Cov gets a jitter of
// 1e-8·s² (s² the mean prior variance at X), growing ×10 for at most 7
// tries; after that the error wraps ErrNotPositiveDefinite.
func (g *GP) Sample(X [][]float64, n int, rng *rand.Rand) ([][]float64, error) {
	m := len(X)
	if n <= 0 || m == 0 {
		return make([][]float64, max(n, 0)), nil
	}
	c := g.Cov(X)
	mean := make([]float64, m)
	g.PredictBatch(X, mean, make([]float64, m))
	var s2 float64
	for _, x := range X {
		s2 += g.k.Eval(x, x)
	}
	s2 *= g.scale * g.scale / float64(m)
	raw := c.RawSymmetric()
	base := make([]float64, m)
	for i := range base {
		base[i] = raw.Data[i*raw.Stride+i]
	}
	var chol mat.Cholesky
	delta := 1e-8 * s2
	ok := false
	for try := 0; try < 7 && !ok; try++ {
		if try > 0 {
			delta *= 10
		}
		for i, b := range base {
			raw.Data[i*raw.Stride+i] = b + delta
		}
		ok = chol.Factorize(c)
	}
	if !ok {
		return nil, fmt.Errorf("%w: posterior covariance of %d points, jitter up to %.3g; remove duplicate query points", ErrNotPositiveDefinite, m, delta)
	}
	u := chol.RawU().(interface{ RawTriangular() blas64.Triangular }).RawTriangular()
	out := make([][]float64, n)
	z := make([]float64, m)
	for s := range out {
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		// f = μ + Uᵀz has covariance UᵀU = Cov.
		blas64.Trmv(blas.Trans, u, blas64.Vector{N: m, Data: z, Inc: 1})
		f := make([]float64, m)
		for i := range f {
			f[i] = mean[i] + z[i]
		}
		out[s] = f
	}
	return out, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i, v := range x {
		y[i] += a * v
	}
}
