package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// DefaultFeatures is the number of random Fourier features of a sample path
// unless the caller asks otherwise [spec gp-and-acquisitions §4.4: m = 1024].
const DefaultFeatures = 1024

// Path is one approximate posterior sample path of f, a function that can be
// evaluated and differentiated anywhere (random Fourier features, Rahimi &
// Recht 2007; [004 Eqs. 4.6–4.8; spec §4.4]):
//
//	f̃(x) = offset + scale·(c + Σ_j w_j cos(ω_jᵀx + b_j)),
//
// on the original y scale; w_j = √(2s²/m)·θ_j with θ drawn from the weight
// posterior. A Path is immutable; its methods may be called concurrently.
type Path struct {
	d      int
	omega  []float64 // m×d spectral frequencies, row j = ω_j
	b      []float64 // phases b_j
	w      []float64 // amplitude-scaled weights
	offset float64   // offset + scale·c
	scale  float64
}

// rffFeatures is a random feature map φ(x)_j = amp·cos(ω_jᵀx + b_j) whose
// inner products approximate the kernel: E[φ(x)ᵀφ(x')] = k(x, x')
// (Bochner's theorem; Rahimi & Recht 2007).
type rffFeatures struct {
	d     int
	omega []float64
	b     []float64
	amp   float64 // √(2s²/m)
}

// drawFeatures draws m features of the stationary kernel k [spec §4.4]:
// RBF ω ~ N(0, diag(l⁻²)); Matérn-ν ω = z/√(u/(2ν)), z ~ N(0, diag(l⁻²)),
// u ~ χ²_{2ν} (a multivariate t with 2ν degrees of freedom, the Matérn
// spectral density); b ~ U(0, 2π). 2ν ∈ {1, 3, 5} is an integer, so u is a
// sum of 2ν squared standard normals.
func drawFeatures(k *kernel.Stationary, m int, rng *rand.Rand) (*rffFeatures, error) {
	var dof int // 2ν; 0 for RBF
	switch k.Family() {
	case kernel.RBF:
	case kernel.Matern12:
		dof = 1
	case kernel.Matern32:
		dof = 3
	case kernel.Matern52:
		dof = 5
	default:
		return nil, fmt.Errorf("gp: random Fourier features for the %v kernel are not implemented (want rbf or matern12/32/52)", k.Family())
	}
	d := k.Dim()
	ls := k.Lengthscales()
	f := &rffFeatures{d: d, omega: make([]float64, m*d), b: make([]float64, m), amp: math.Sqrt(2 * k.Variance() / float64(m))}
	for j := range m {
		s := 1.0
		if dof > 0 {
			var u float64
			for range dof {
				z := rng.NormFloat64()
				u += z * z
			}
			s = 1 / math.Sqrt(u/float64(dof))
		}
		row := f.omega[j*d : (j+1)*d]
		for i := range row {
			row[i] = s * rng.NormFloat64() / ls[min(i, len(ls)-1)]
		}
		f.b[j] = 2 * math.Pi * rng.Float64()
	}
	return f, nil
}

// at writes φ(x) into out (len m).
func (f *rffFeatures) at(x, out []float64) {
	for j := range out {
		out[j] = f.amp * math.Cos(phase(f.omega[j*f.d:(j+1)*f.d], x, f.b[j]))
	}
}

func phase(omega, x []float64, b float64) float64 {
	s := b
	for i, o := range omega {
		s += o * x[i]
	}
	return s
}

// SamplePath draws one approximate posterior sample path of f with m random
// Fourier features (m ≤ 0: DefaultFeatures) [spec §4.4]. The kernel must be a
// *kernel.Stationary of family RBF, Matérn-1/2, 3/2 or 5/2.
//
// With Φ the n×m feature matrix of the training inputs, r = ỹ − c the
// centred standardised targets and σ² the noise (plus any jitter the
// factorisation needed), the weights are drawn from the Bayesian
// linear-regression posterior [004 Eqs. 4.6–4.8]
//
//	θ ~ N(A⁻¹Φᵀr/σ², A⁻¹),  A = I + ΦᵀΦ/σ².
//
// For n ≥ m this is done as written, by the Cholesky factor of the m×m A, in
// O(nm² + m³). For n < m the same distribution is drawn in O(n²m + n³) by
// the equivalent update θ = z + ΦᵀB⁻¹(r − Φz − σε), B = ΦΦᵀ + σ²I,
// z ~ N(0, I_m), ε ~ N(0, I_n): by Woodbury its mean ΦᵀB⁻¹r and covariance
// I − ΦᵀB⁻¹Φ equal A⁻¹Φᵀr/σ² and A⁻¹ (the cost [000 §3.3] quotes, O(n²m)).
func (g *GP) SamplePath(m int, rng *rand.Rand) (*Path, error) {
	if m <= 0 {
		m = DefaultFeatures
	}
	return g.samplePath(m, rng, len(g.x) < m)
}

// samplePath is SamplePath with the n×n (dual) or m×m (primal) form chosen
// by the caller; both draw from the same distribution.
func (g *GP) samplePath(m int, rng *rand.Rand, dual bool) (*Path, error) {
	if rng == nil {
		return nil, errors.New("gp: SamplePath needs a random source (rng is nil)")
	}
	k, ok := g.k.(*kernel.Stationary)
	if !ok {
		return nil, fmt.Errorf("gp: random Fourier features need a stationary kernel, the model has %T", g.k)
	}
	f, err := drawFeatures(k, m, rng)
	if err != nil {
		return nil, err
	}
	n := len(g.x)
	phi := mat.NewDense(n, m, nil)
	for i, x := range g.x {
		f.at(x, phi.RawRowView(i))
	}
	r := make([]float64, n)
	for i, v := range g.y {
		r[i] = v - g.c
	}
	noise := g.noise + g.jitter
	var theta []float64
	if dual {
		theta, err = weightsDual(phi, r, noise, rng)
	} else {
		theta, err = weightsPrimal(phi, r, noise, rng)
	}
	if err != nil {
		return nil, err
	}
	for j := range theta {
		theta[j] *= f.amp
	}
	return &Path{d: f.d, omega: f.omega, b: f.b, w: theta, offset: g.offset + g.scale*g.c, scale: g.scale}, nil
}

// weightsPrimal draws θ ~ N(A⁻¹Φᵀr/σ², A⁻¹), A = I + ΦᵀΦ/σ² = LLᵀ, as
// mean + L⁻ᵀz. A ≥ I, so the factorisation cannot fail for σ² > 0.
func weightsPrimal(phi *mat.Dense, r []float64, noise float64, rng *rand.Rand) ([]float64, error) {
	if !(noise > 0) {
		return nil, errors.New("gp: SamplePath with m ≤ n features needs a positive noise variance")
	}
	_, m := phi.Dims()
	var a mat.SymDense
	a.SymOuterK(1/noise, phi.T())
	for j := range m {
		a.SetSym(j, j, a.At(j, j)+1)
	}
	var chol mat.Cholesky
	if !chol.Factorize(&a) {
		return nil, fmt.Errorf("%w: weight precision of %d random features", ErrNotPositiveDefinite, m)
	}
	rhs := mat.NewVecDense(m, nil)
	rhs.MulVec(phi.T(), mat.NewVecDense(len(r), r))
	rhs.ScaleVec(1/noise, rhs)
	var mean mat.VecDense
	if err := chol.SolveVecTo(&mean, rhs); err != nil {
		return nil, err
	}
	// L⁻ᵀz with A = UᵀU (U = Lᵀ): solve U e = z.
	z := make([]float64, m)
	for j := range z {
		z[j] = rng.NormFloat64()
	}
	var u mat.TriDense
	chol.UTo(&u)
	var e mat.VecDense
	if err := e.SolveVec(&u, mat.NewVecDense(m, z)); err != nil {
		return nil, err
	}
	theta := make([]float64, m)
	for j := range theta {
		theta[j] = mean.AtVec(j) + e.AtVec(j)
	}
	return theta, nil
}

// weightsDual draws the same θ as weightsPrimal by θ = z + ΦᵀB⁻¹(r − Φz −
// σε), B = ΦΦᵀ + σ²I, with the GP's jitter schedule when B is singular to
// working precision (tiny noise, near-duplicate inputs).
func weightsDual(phi *mat.Dense, r []float64, noise float64, rng *rand.Rand) ([]float64, error) {
	n, m := phi.Dims()
	var bm mat.SymDense
	bm.SymOuterK(1, phi)
	diag := make([]float64, n)
	var mean float64
	for i := range diag {
		diag[i] = bm.At(i, i)
		mean += diag[i]
	}
	mean /= float64(n)
	var chol mat.Cholesky
	delta := 0.0
	for try := 0; ; try++ {
		for i, v := range diag {
			bm.SetSym(i, i, v+noise+delta)
		}
		if chol.Factorize(&bm) {
			break
		}
		if try == jitterTries {
			return nil, fmt.Errorf("%w: feature Gram matrix of %d points, jitter up to %.3g", ErrNotPositiveDefinite, n, delta)
		}
		if delta == 0 {
			delta = jitterRel * mean
		} else {
			delta *= jitterGrow
		}
	}
	z := make([]float64, m)
	for j := range z {
		z[j] = rng.NormFloat64()
	}
	sd := math.Sqrt(noise)
	res := mat.NewVecDense(n, nil)
	res.MulVec(phi, mat.NewVecDense(m, z))
	for i := range n {
		res.SetVec(i, r[i]-res.AtVec(i)-sd*rng.NormFloat64())
	}
	var sol mat.VecDense
	if err := chol.SolveVecTo(&sol, res); err != nil {
		return nil, err
	}
	up := mat.NewVecDense(m, nil)
	up.MulVec(phi.T(), &sol)
	for j := range z {
		z[j] += up.AtVec(j)
	}
	return z, nil
}

// Dim returns the input dimension of the path.
func (p *Path) Dim() int { return p.d }

// Eval returns f̃(x) on the original y scale. It panics if len(x) is not
// the path's dimension.
func (p *Path) Eval(x []float64) float64 {
	p.check(x)
	var s float64
	for j, w := range p.w {
		s += w * math.Cos(phase(p.omega[j*p.d:(j+1)*p.d], x, p.b[j]))
	}
	return p.offset + p.scale*s
}

// Grad returns f̃(x) and writes ∇f̃(x) = −scale·Σ_j w_j sin(ω_jᵀx + b_j)ω_j
// into grad (len(x)).
func (p *Path) Grad(x, grad []float64) float64 {
	p.check(x)
	if len(grad) != len(x) {
		panic(fmt.Sprintf("gp: Path.Grad gradient buffer of length %d, want %d", len(grad), len(x)))
	}
	clear(grad)
	var s float64
	for j, w := range p.w {
		om := p.omega[j*p.d : (j+1)*p.d]
		sn, cs := math.Sincos(phase(om, x, p.b[j]))
		s += w * cs
		axpy(-p.scale*w*sn, om, grad)
	}
	return p.offset + p.scale*s
}

func (p *Path) check(x []float64) {
	if len(x) != p.d {
		panic(fmt.Sprintf("gp: Path of dimension %d evaluated at a point of dimension %d", p.d, len(x)))
	}
}
