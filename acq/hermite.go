package acq

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// GaussHermite returns the n nodes z_i and weights w_i of Gauss–Hermite
// quadrature for the standard normal density,
//
//	E[g(Z)] ≈ Σ_i w_i g(z_i),  Z ~ N(0, 1),
//
// exact for polynomials g of degree ≤ 2n − 1; the weights sum to 1 and the
// nodes are symmetric about 0 (ascending order). Knowledge gradient takes
// its expectation over Z with n = 32 (spec §4.3, Decision).
//
// The nodes are the eigenvalues of the Jacobi matrix of the probabilists'
// Hermite polynomials, tridiagonal with zero diagonal and off-diagonal
// √1, …, √(n−1) (Golub & Welsch 1969), each polished by Newton steps on
// the orthonormal polynomial p_n. The weights are then 1/(n·p_{n−1}(z_i)²)
// rather than squared eigenvector components: the outer weights are
// below 1e-20, where an eigenvector's absolute accuracy of ~1e-16 would
// leave no correct digit, and the high moments depend on exactly those.
func GaussHermite(n int) (nodes, weights []float64) {
	if n < 1 {
		panic(fmt.Sprintf("acq: GaussHermite with %d nodes", n))
	}
	j := mat.NewSymDense(n, nil)
	for k := 1; k < n; k++ {
		j.SetSym(k-1, k, math.Sqrt(float64(k)))
	}
	var eig mat.EigenSym
	if !eig.Factorize(j, false) {
		panic("acq: GaussHermite: eigen-decomposition of the Jacobi matrix failed")
	}
	nodes = eig.Values(nil) // ascending
	weights = make([]float64, n)
	for i, z := range nodes {
		for range 3 {
			pn, pm := hermiteOrtho(n, z)
			step := pn / (math.Sqrt(float64(n)) * pm) // p_n' = √n·p_{n−1}
			z -= step
			if math.Abs(step) <= 1e-15*math.Max(1, math.Abs(z)) {
				break
			}
		}
		_, pm := hermiteOrtho(n, z)
		nodes[i], weights[i] = z, 1/(float64(n)*pm*pm)
	}
	// Exact symmetry: the odd moments then vanish to rounding.
	for i := range n / 2 {
		z := 0.5 * (nodes[n-1-i] - nodes[i])
		w := 0.5 * (weights[i] + weights[n-1-i])
		nodes[i], nodes[n-1-i] = -z, z
		weights[i], weights[n-1-i] = w, w
	}
	if n%2 == 1 {
		nodes[n/2] = 0
	}
	var sum float64
	for _, w := range weights {
		sum += w
	}
	for i := range weights {
		weights[i] /= sum
	}
	return nodes, weights
}

// hermiteOrtho returns p_n(z) and p_{n−1}(z) for the orthonormal
// probabilists' Hermite polynomials p_k = He_k/√(k!), by the recurrence
// √(k+1)·p_{k+1} = z·p_k − √k·p_{k−1}, p_0 = 1 (no factorial overflows).
func hermiteOrtho(n int, z float64) (pn, pm float64) {
	prev, cur := 0.0, 1.0
	for k := range n {
		fk := float64(k)
		prev, cur = cur, (z*cur-math.Sqrt(fk)*prev)/math.Sqrt(fk+1)
	}
	return cur, prev
}

// kgNodes is the 32-node rule of KG, computed once.
var kgNodes = sync.OnceValues(func() ([]float64, []float64) { return GaussHermite(kgQuadrature) })

// kgQuadrature is the number of Gauss–Hermite nodes of KG's expectation
// (spec §4.3, Decision).
const kgQuadrature = 32
