package sampler_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/boaopt/boa/bench/functions"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
)

// benchSuggest times one gpbo suggestion, hyper-parameter refit included,
// with n observations of Ackley in d dimensions. The sampler has fitted
// the same data once before, as it has in a running study (warm start).
func benchSuggest(b *testing.B, n, d int) {
	fn, _ := functions.Get("ackley", d)
	rng := rand.New(rand.NewPCG(1, 2))
	sp := unitSpace(b, d)
	h := &sampler.History{Space: sp, Seed: 1, Trials: n}
	for range n {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: fn.EvalUnit(u)})
	}
	g := sampler.NewGPBO()
	if _, err := g.Suggest(context.Background(), h, rng); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i)))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCholesky times one factorisation of a Matérn-5/2 kernel matrix
// of the sizes BenchmarkGPBOSuggest uses, the unit its cost is read in.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			X := make([][]float64, n)
			for i := range X {
				X[i] = make([]float64, 10)
				for j := range X[i] {
					X[i][j] = rng.Float64()
				}
			}
			K := kernel.Matrix(kernel.NewStationary(kernel.Matern52, 10, true), X)
			for i := range n {
				K.SetSym(i, i, K.At(i, i)+1e-3)
			}
			var c mat.Cholesky
			for b.Loop() {
				if !c.Factorize(K) {
					b.Fatal("not positive definite")
				}
			}
		})
	}
}
