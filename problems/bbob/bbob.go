package bbob

import (
	"errors"
	"fmt"
	"sync"
)

// Limits on New's arguments. COCO defines instances for d ≤ 40 and small
// instance numbers; the limits here only keep every seed inside the positive
// 31-bit range the legacy generator was written for (so instances stay
// reproducible) and the d×d rotations of a reasonable size.
const (
	MaxDim      = 1000
	MaxInstance = 100000
)

// Errors wrapped by New; test with errors.Is.
var (
	ErrFunction = errors.New("bbob: no such function")
	ErrInstance = errors.New("bbob: invalid instance")
	ErrDim      = errors.New("bbob: invalid dimension")
)

// Function is one BBOB instance: f(x) for x ∈ R^d, including the offset
// FOpt. The search box is [−5, 5]^d; outside it most functions add a
// boundary penalty, and all of them stay defined.
//
// XOpt is the global minimiser, and Eval(XOpt) == FOpt bit for bit for
// every function except f20 (Schwefel: the 1-D optimum of x·sin√|x| is known
// to 10 digits only; |Eval(XOpt) − FOpt| is of order 1e−14) and, in
// principle, f9 and f19, whose XOpt = Rᵀ1/(2·max(1, √d/8)) goes through R·Rᵀ
// (they agree exactly in the tested dimensions). For f5 XOpt is the box
// corner 5·sign(x_opt) where the linear slope attains FOpt; for f21/f22 it
// is the centre of the highest peak.
//
// A Function is immutable after New, and Eval is safe for concurrent use:
// scratch space comes from a per-Function sync.Pool.
type Function struct {
	ID, Instance, Dim int
	Name              string
	XOpt              []float64
	FOpt              float64

	xopt       []float64 // the shift the transformations use; differs from XOpt for f5, f8, f9, f19, f20, f24
	rot1, rot2 []float64 // d×d row-major rotations seeded with rseed+10^6 and rseed
	mat        []float64 // a combined linear map (e.g. rot1·Λ·rot2), per function
	w          []float64 // per-coordinate weights (ellipsoid axes, slopes, Λ diagonal)
	c          float64   // a scalar constant of the function (Rosenbrock factor, Weierstrass f0)
	gal        *gallagher

	eval func(f *Function, x, s []float64) float64 // s: scratch of length scratchLen·d
	pool sync.Pool
}

// scratchLen is the number of d-vectors of scratch space one Eval may use.
const scratchLen = 3

// builder precomputes one function's instance data and sets f.eval.
type builder func(f *Function, rseed int64)

// suite lists the 24 functions in BBOB order (index fid−1).
var suite = [24]struct {
	name  string
	build builder
}{
	{"sphere", buildSphere},
	{"ellipsoid", buildEllipsoid},
	{"rastrigin", buildRastrigin},
	{"bueche_rastrigin", buildBuecheRastrigin},
	{"linear_slope", buildLinearSlope},
	{"attractive_sector", buildAttractiveSector},
	{"step_ellipsoid", buildStepEllipsoid},
	{"rosenbrock", buildRosenbrock},
	{"rosenbrock_rotated", buildRosenbrockRotated},
	{"ellipsoid_rotated", buildEllipsoidRotated},
	{"discus", buildDiscus},
	{"bent_cigar", buildBentCigar},
	{"sharp_ridge", buildSharpRidge},
	{"different_powers", buildDifferentPowers},
	{"rastrigin_rotated", buildRastriginRotated},
	{"weierstrass", buildWeierstrass},
	{"schaffers10", buildSchaffers(10)},
	{"schaffers1000", buildSchaffers(1000)},
	{"griewank_rosenbrock", buildGriewankRosenbrock},
	{"schwefel", buildSchwefel},
	{"gallagher101", buildGallagher(101)},
	{"gallagher21", buildGallagher(21)},
	{"katsuura", buildKatsuura},
	{"lunacek_bi_rastrigin", buildLunacek},
}

// Names returns the short names of the 24 functions; Names()[fid−1] names
// function fid.
func Names() []string {
	n := make([]string, len(suite))
	for i, s := range suite {
		n[i] = s.name
	}
	return n
}

// New returns instance iid of BBOB function fid in dimension dim, with every
// rotation, shift and peak precomputed. fid must be in 1..24, iid in
// 1..MaxInstance and dim in 2..MaxDim (the definitions divide by d−1).
func New(fid, iid, dim int) (*Function, error) {
	if fid < 1 || fid > len(suite) {
		return nil, fmt.Errorf("%w: function id %d (want 1..%d)", ErrFunction, fid, len(suite))
	}
	if iid < 1 || iid > MaxInstance {
		return nil, fmt.Errorf("%w: instance %d of f%d (want 1..%d)", ErrInstance, iid, fid, MaxInstance)
	}
	if dim < 2 || dim > MaxDim {
		return nil, fmt.Errorf("%w: dimension %d for f%d (want 2..%d)", ErrDim, dim, fid, MaxDim)
	}
	f := &Function{
		ID:       fid,
		Instance: iid,
		Dim:      dim,
		Name:     suite[fid-1].name,
		FOpt:     optimalValue(fid, iid),
	}
	suite[fid-1].build(f, instanceSeed(fid, iid))
	if f.XOpt == nil {
		f.XOpt = append([]float64(nil), f.xopt...)
	}
	f.pool.New = func() any {
		s := make([]float64, scratchLen*dim)
		return &s
	}
	return f, nil
}

// Eval returns f(x), including FOpt. It panics if len(x) != f.Dim (a
// programmer error). It does not modify x and is safe for concurrent use.
func (f *Function) Eval(x []float64) float64 {
	if len(x) != f.Dim {
		panic(fmt.Sprintf("bbob: f%d (%s): len(x) = %d, want %d", f.ID, f.Name, len(x), f.Dim))
	}
	p := f.pool.Get().(*[]float64)
	v := f.eval(f, x, *p)
	f.pool.Put(p)
	return v
}

// String identifies the instance like COCO's problem ids.
func (f *Function) String() string {
	return fmt.Sprintf("bbob_f%03d_i%02d_d%02d", f.ID, f.Instance, f.Dim)
}

// bufs splits the scratch space into d-vectors.
func bufs(s []float64, d int) (a, b, c []float64) {
	return s[:d], s[d : 2*d], s[2*d : 3*d]
}
