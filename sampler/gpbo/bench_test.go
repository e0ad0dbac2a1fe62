package gpbo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkGPBOBatchOneByOne times a batch of 4 asked one point at a
// time, as study.AskBatch asks a sampler without SuggestBatch: the four
// suggestions see the same n observations (a full-refit round, n = 500)
// and the earlier points of the batch as pending.
func BenchmarkGPBOBatchOneByOne(b *testing.B) {
	const n, d, batch = 500, 10, 4
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := samplertest.AckleyObservations(n, d, rng)
	g := New()
	if _, err := g.Fit(sp, obs[:n-1], rng); err != nil {
		b.Fatal(err)
	}
	warm := g.warm.Get("", len(g.warm.Get("", 0)))
	for b.Loop() {
		g.warm.Set("", warm, 0) // fitted to the n−1 earlier observations
		h := &sampler.History{Space: sp, Seed: 1, Trials: n, Observed: obs}
		for s := range batch {
			u, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(s))))
			if err != nil {
				b.Fatal(err)
			}
			h.Pending = append(h.Pending, u)
			h.Trials++
		}
	}
}

// BenchmarkGPBOSuggest times gpbo suggestions, hyper-parameter refit
// included, with n observations of Ackley in 10 dimensions. As in a
// running study, the sampler has fitted the n−1 earlier observations
// (warm start); each op is max(10, RefitStep(n)) consecutive suggestions
// from n observations on, so that it holds exactly one full refit beyond
// 200 observations and their cadence is counted fairly, and "s/suggest"
// reports their mean. Beyond 2,000 observations the GP is fitted to a
// subset (subset.go).
func BenchmarkGPBOSuggest(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d/d=10", n), func(b *testing.B) { benchSuggest(b, n, 10) })
	}
}

// benchSizes are the history sizes of BenchmarkGPBOSuggest and
// BenchmarkCholesky (issue 41).
var benchSizes = []int{100, 500, 1000, 2000, 10000}

func benchSuggest(b *testing.B, n, d int) {
	steps := max(10, RefitStep(n))
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := samplertest.AckleyObservations(n+steps, d, rng)
	g := New()
	if _, err := g.Fit(sp, obs[:n-1], rng); err != nil {
		b.Fatal(err)
	}
	warm := g.warm.Get("", kernel.NewStationary(g.Kernel, sp.NumFeatures(), g.ARD).NumParams()+1)
	var spent time.Duration
	for b.Loop() {
		g.warm.Set("", warm, 0)
		start := time.Now()
		for s := range steps {
			h := &sampler.History{Space: sp, Seed: 1, Trials: n + s, Observed: obs[:n+s]}
			if _, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(s)))); err != nil {
				b.Fatal(err)
			}
		}
		spent += time.Since(start)
	}
	b.ReportMetric(spent.Seconds()/float64(b.N*steps), "s/suggest")
}

// BenchmarkCholesky times one factorisation of a Matérn-5/2 kernel matrix
// of the sizes BenchmarkGPBOSuggest uses: the unit its cost is read in.
func BenchmarkCholesky(b *testing.B) {
	for _, n := range benchSizes {
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
