package gp

import (
	"fmt"
	"math"

	"github.com/boaopt/boa/kernel"
)

// Terms is the number of additive terms of the GP's kernel: len(Terms())
// of a kernel.Sum, else 1.
func (g *GP) Terms() int {
	if s, ok := g.k.(*kernel.Sum); ok {
		return len(s.Terms())
	}
	return 1
}

// PredictTerm returns the posterior of the j-th additive component of f
// when the kernel is a sum, f = Σ_j f_j with k = Σ_j k_j (a kernel.Sum;
// any other kernel is its own single term), and writes the gradients of
// its mean and latent variance with respect to x into dmean and dvar (nil
// to skip) [Kandasamy et al. 2015; spec attacks §1.4]:
//
//	μ_j(x)  = scale · k_j(x, X) A⁻¹ ỹ
//	σ_j²(x) = scale² · (k_j(x, x) − k_j(x, X) A⁻¹ k_j(X, x)),
//
// A the Gram matrix of the full kernel plus noise. The components' means
// sum to Predict's mean less the constant offset + scale·c (Mean()), so
// each f_j can be maximised over its own coordinates (ADDGP-BO's
// per-subspace acquisition).
func (g *GP) PredictTerm(j int, x, dmean, dvar []float64) (mean, varF float64) {
	mu, kxx, q := g.predictGrad(g.term(j), x, dmean, dvar)
	return g.termOriginal(mu, kxx, q)
}

// PredictTermBatch is PredictTerm without gradients at the rows of X, as
// PredictBatch is Predict.
func (g *GP) PredictTermBatch(j int, X [][]float64, mean, varF []float64) {
	g.batch(g.term(j), g.termOriginal, X, mean, varF)
}

// term returns the j-th additive term of the kernel.
func (g *GP) term(j int) kernel.Kernel {
	if s, ok := g.k.(*kernel.Sum); ok {
		if j < 0 || j >= len(s.Terms()) {
			panic(fmt.Sprintf("gp: PredictTerm(%d) of a sum of %d terms", j, len(s.Terms())))
		}
		return s.Terms()[j]
	}
	if j != 0 {
		panic(fmt.Sprintf("gp: PredictTerm(%d) of a kernel that is not a sum", j))
	}
	return g.k
}

// termOriginal is original for one term: scaled, without the offset.
func (g *GP) termOriginal(mu, kxx, q float64) (mean, varF float64) {
	return g.scale * mu, g.scale * g.scale * math.Max(kxx-q, varFloor*kxx)
}
