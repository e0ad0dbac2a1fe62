package gp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// unbound hides a kernel's own Gram (kernel.Bind then calls the kernel on
// each pair), as every fit evaluated kernels before the Grams.
type unbound struct{ kernel.Kernel }

func (u unbound) Clone() kernel.Kernel { return unbound{u.Kernel.Clone()} }

// TestFitSameWithGrams fits the same data with each kernel through its own
// Gram and through per-pair calls: the Grams must not change a fit by a
// single bit (docs/performance.md, "Grams"), so that results measured
// before them still hold.
func TestFitSameWithGrams(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 40
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		// Two categorical columns (4 and 2 levels), then two continuous.
		X[i] = []float64{float64(rng.IntN(4)), float64(rng.IntN(2)), rng.Float64(), rng.Float64()}
		y[i] = X[i][0] - 2*X[i][1] + X[i][2]*X[i][3] + 0.1*rng.NormFloat64()
	}
	mixture := func() kernel.Kernel {
		kh := kernel.NewExpOverlap([]int{0, 1}, true, false)
		kx := kernel.NewSubset(kernel.NewStationary(kernel.Matern52, 2, true), []int{2, 3})
		return kernel.NewMixture(kh, kx, 0.5, true)
	}
	for name, mk := range map[string]func() kernel.Kernel{
		"matern52-ard": func() kernel.Kernel { return kernel.NewStationary(kernel.Matern52, 4, true) },
		"rq-iso":       func() kernel.Kernel { return kernel.NewStationary(kernel.RQ, 4, false) },
		"mixture":      mixture,
		"expoverlap":   func() kernel.Kernel { return kernel.NewExpOverlap([]int{0, 1}, true, true) },
		"sum-of-product": func() kernel.Kernel {
			kh := kernel.NewExpOverlap([]int{0, 1}, true, false)
			kx := kernel.NewSubset(kernel.NewStationary(kernel.Matern32, 2, true), []int{2, 3})
			return kernel.NewSum(kernel.NewProduct(kh.Clone(), kx.Clone()), kh, kx)
		},
	} {
		t.Run(name, func(t *testing.T) {
			fit := func(k kernel.Kernel) *GP {
				m, err := Fit(X, y, Config{Kernel: k, Restarts: 3, Rand: rand.New(rand.NewPCG(5, 6))})
				if err != nil {
					t.Fatal(err)
				}
				return m
			}
			with, without := fit(mk()), fit(unbound{mk()})
			if !slices.Equal(with.Params(), without.Params()) || with.LogMarginal() != without.LogMarginal() {
				t.Fatalf("with Grams: params %v, LML %v; per pair: %v, %v",
					with.Params(), with.LogMarginal(), without.Params(), without.LogMarginal())
			}
		})
	}
}
