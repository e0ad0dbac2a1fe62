package gp

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// PostCov writes the posterior covariance k_post(a_i, x) of f between each
// row a_i of A and x into out (len(A)), on the original y scale:
//
//	k_post(a, x) = k(a, x) − k(a, X) A⁻¹ k(X, x)     [000 Eq. 2.8; spec §1.1]
//
// in O(n² + len(A)·n) (one solve for x, then a dot product per a). The
// look-ahead acquisitions need it: knowledge gradient's change of the
// posterior mean at a after observing x (spec §4.3), PES-lite's
// correlation of f(x) and f(x*) (spec §4.5).
func (g *GP) PostCov(A [][]float64, x []float64, out []float64) {
	g.checkDim(x)
	if len(out) != len(A) {
		panic(fmt.Sprintf("gp: PostCov with %d rows and %d outputs", len(A), len(out)))
	}
	w := g.solvedCross(x) // A⁻¹ k(X, x)
	s2 := g.scale * g.scale
	for i, a := range A {
		g.checkDim(a)
		c := g.k.Eval(a, x)
		for j, xj := range g.x {
			c -= g.k.Eval(a, xj) * w[j]
		}
		out[i] = s2 * c
	}
}

// PostCovGrad returns k_post(a, x) and writes its gradient with respect to
// x into grad (len(x)):
//
//	∂k_post(a, x)/∂x = ∂k(x, a)/∂x − J(x)ᵀ A⁻¹ k(X, a),  J(x) = ∂k(X, x)/∂x.
func (g *GP) PostCovGrad(a, x, grad []float64) float64 {
	g.checkDim(a)
	g.checkDim(x)
	d := len(x)
	if len(grad) != d {
		panic(fmt.Sprintf("gp: PostCovGrad gradient buffer of length %d, want %d", len(grad), d))
	}
	wa := g.solvedCross(a) // A⁻¹ k(X, a)
	s2 := g.scale * g.scale
	c := g.k.InputGrad(x, a, grad)
	row := make([]float64, d)
	for j, xj := range g.x {
		kj := g.k.InputGrad(x, xj, row)
		c -= kj * wa[j]
		axpy(-wa[j], row, grad)
	}
	for j := range grad {
		grad[j] *= s2
	}
	return s2 * c
}

// solvedCross returns A⁻¹ k(X, x) on the standardised scale, by two
// triangular solves with the factor A = UᵀU.
func (g *GP) solvedCross(x []float64) []float64 {
	w := make([]float64, len(g.x))
	for j, xj := range g.x {
		w[j] = g.k.Eval(xj, x)
	}
	v := blas64.Vector{N: len(w), Data: w, Inc: 1}
	blas64.Trsv(blas.Trans, g.u, v)
	blas64.Trsv(blas.NoTrans, g.u, v)
	return w
}
