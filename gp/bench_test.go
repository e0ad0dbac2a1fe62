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

func BenchmarkFit(b *testing.B) {
	for _, n := range []int{100, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			X, y := benchData(n, 10, 1)
			for b.Loop() {
				_, err := Fit(X, y, Config{
					Kernel: kernel.NewStationary(kernel.Matern52, 10, true),
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
			f.build(k, X)
			for b.Loop() {
				if _, err := f.factorize(1e-3); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
