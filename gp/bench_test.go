package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// benchData draws n points in [0,1]^d with a smooth, noisy target.
func benchData(n, d int, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		var s float64
		for j := range X[i] {
			X[i][j] = rng.Float64()
			s += math.Sin(3*X[i][j]*float64(j+1)) / float64(j+1)
		}
		y[i] = s + 0.05*rng.NormFloat64()
	}
	return X, y
}

func BenchmarkFit(b *testing.B) { benchFit(b, MeanZero) }

// BenchmarkFitConstantMean is BenchmarkFit with MeanConstant: two more
// triangular solves per LML evaluation, O(n²) beside the O(n³) Cholesky.
func BenchmarkFitConstantMean(b *testing.B) { benchFit(b, MeanConstant) }

func benchFit(b *testing.B, mean Mean) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			X, y := benchData(n, 10, 1)
			for b.Loop() {
				_, err := Fit(X, y, Config{
					Kernel: kernel.NewStationary(kernel.Matern52, 10, true),
					Mean:   mean,
					Rand:   rand.New(rand.NewPCG(2, 3)),
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCholesky(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			X, _ := benchData(n, 10, 1)
			k := kernel.NewStationary(kernel.Matern52, 10, true)
			f := newFactor(n)
			f.build(func(i, j int) float64 { return k.Eval(X[i], X[j]) })
			for b.Loop() {
				if _, err := f.factorize(1e-3); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredict scores m candidates in d = 10 one at a time and in one
// PredictBatch call: m = 2048 as in the acquisition optimiser's raw search,
// m = 16 as in a local search's moves.
func BenchmarkPredict(b *testing.B) {
	for _, n := range []int{100, 200, 1000} {
		X, y := benchData(n, 10, 1)
		g, err := Fit(X, y, Config{
			Kernel: kernel.NewStationary(kernel.Matern52, 10, true),
			Rand:   rand.New(rand.NewPCG(2, 3)),
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range []int{16, 2048} {
			C, _ := benchData(m, 10, 5)
			mean, varF := make([]float64, m), make([]float64, m)
			b.Run(fmt.Sprintf("single/n=%d/m=%d", n, m), func(b *testing.B) {
				for b.Loop() {
					for j, c := range C {
						mean[j], varF[j] = g.Predict(c)
					}
				}
			})
			b.Run(fmt.Sprintf("batch/n=%d/m=%d", n, m), func(b *testing.B) {
				for b.Loop() {
					g.PredictBatch(C, mean, varF)
				}
			})
		}
	}
}
