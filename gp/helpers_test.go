package gp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
	"gonum.org/v1/gonum/mat"
)

// randData draws n points uniformly in [0,1]^d with a smooth noisy target.
func randData(n, d int, rng *rand.Rand) ([][]float64, []float64) {
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
		y[i] = 3 + 2*math.Sin(4*X[i][0]) + X[i][d-1]*X[i][d-1] + 0.1*rng.NormFloat64()
	}
	return X, y
}

// gradClose is the mixed criterion for analytic vs central finite
// differences: relative error 1e-5 with a small absolute floor for entries
// that are (near) zero.
func gradClose(analytic, fd, floor float64) bool {
	return math.Abs(analytic-fd) <= 1e-5*math.Max(math.Abs(analytic), math.Abs(fd))+floor
}

// denseModel is an independent reference: dense inverse of A with mat.
type denseModel struct {
	x      [][]float64
	k      kernel.Kernel
	ainv   *mat.Dense
	alpha  *mat.VecDense
	offset float64
	scale  float64
}

func newDense(X [][]float64, ys []float64, offset, scale float64, k kernel.Kernel, noise float64) *denseModel {
	n := len(X)
	A := mat.NewDense(n, n, nil)
	for i := range X {
		for j := range X {
			A.Set(i, j, k.Eval(X[i], X[j]))
		}
		A.Set(i, i, A.At(i, i)+noise)
	}
	var inv mat.Dense
	if err := inv.Inverse(A); err != nil {
		panic(err)
	}
	var alpha mat.VecDense
	alpha.MulVec(&inv, mat.NewVecDense(n, ys))
	return &denseModel{x: X, k: k, ainv: &inv, alpha: &alpha, offset: offset, scale: scale}
}

func (d *denseModel) cov(a, b []float64) float64 {
	n := len(d.x)
	ka, kb := mat.NewVecDense(n, nil), mat.NewVecDense(n, nil)
	for i, xi := range d.x {
		ka.SetVec(i, d.k.Eval(xi, a))
		kb.SetVec(i, d.k.Eval(xi, b))
	}
	var t mat.VecDense
	t.MulVec(d.ainv, kb)
	return d.scale * d.scale * (d.k.Eval(a, b) - mat.Dot(ka, &t))
}

func (d *denseModel) mean(a []float64) float64 {
	var m float64
	for i, xi := range d.x {
		m += d.k.Eval(xi, a) * d.alpha.AtVec(i)
	}
	return d.offset + d.scale*m
}

// denseCov returns A = K(X, X) + noise·I as a dense matrix, for the
// reference computations the tests compare the model with.
func denseCov(X [][]float64, k kernel.Kernel, noise float64) *mat.SymDense {
	n := len(X)
	A := mat.NewSymDense(n, nil)
	for i := range X {
		for j := i; j < n; j++ {
			A.SetSym(i, j, k.Eval(X[i], X[j]))
		}
		A.SetSym(i, i, A.At(i, i)+noise)
	}
	return A
}

// extended returns g's inputs and standardised targets with (Xf, yf)
// appended on g's scale: the data a fantasy update of g stands for.
func extended(g *GP, Xf [][]float64, yf []float64) ([][]float64, []float64) {
	xs := append(append([][]float64(nil), g.x...), Xf...)
	ys := append([]float64(nil), g.y...)
	for _, v := range yf {
		ys = append(ys, (v-g.offset)/g.scale)
	}
	return xs, ys
}

// checkLMLGrad compares the gradient of g.LogMarginalGrad at the
// log-params p with central differences of step h, and returns it.
func checkLMLGrad(t *testing.T, name string, g *GP, p []float64, h float64) []float64 {
	t.Helper()
	grad := make([]float64, len(p))
	v, err := g.LogMarginalGrad(p, grad)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	tmp := make([]float64, len(p))
	for j := range p {
		q := slices.Clone(p)
		q[j] += h
		fp, _ := g.LogMarginalGrad(q, tmp)
		q[j] -= 2 * h
		fm, _ := g.LogMarginalGrad(q, tmp)
		if fd := (fp - fm) / (2 * h); !gradClose(grad[j], fd, 1e-7*math.Abs(v)) {
			t.Errorf("%s param %d: analytic %v, fd %v", name, j, grad[j], fd)
		}
	}
	return grad
}

// batchMatches reports whether PredictBatch's (bm, bv) at a point is
// Predict's (m, v): bit for bit with gonum's BLAS, since acquisition
// optimisers score candidates with either and their results must not
// depend on which, and to 1e-12 with OpenBLAS (-tags openblas), which
// orders its sums its own way.
func batchMatches(m, v, bm, bv float64) bool {
	if _, native := blas64.Implementation().(gonum.Implementation); native {
		return m == bm && v == bv
	}
	return math.Abs(m-bm) <= 1e-12*math.Max(1, math.Abs(m)) && math.Abs(v-bv) <= 1e-12*math.Max(v, 1e-12)
}
