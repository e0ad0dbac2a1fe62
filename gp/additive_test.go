package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// spec attacks §4: the sub-posterior means of an additive GP sum to the
// full posterior mean; each term's variance and both gradients agree with
// a finite difference.
func TestPredictTermsSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const d, n = 6, 25
	groups := [][]int{{0, 3}, {1, 4, 5}, {2}}
	var terms []kernel.Kernel
	for i, cols := range groups {
		k := kernel.NewStationary(kernel.Matern52, len(cols), false)
		k.SetLengthscales([]float64{0.3 + 0.2*float64(i)})
		terms = append(terms, kernel.NewSubset(k, cols))
	}
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
		y[i] = math.Sin(3*X[i][0]) + X[i][1]*X[i][4] + 3
	}
	for _, mean := range []Mean{MeanZero, MeanConstant} {
		g, err := NewWithMean(X, y, kernel.NewSum(terms...), 1e-4, mean)
		if err != nil {
			t.Fatal(err)
		}
		if g.Terms() != 3 {
			t.Fatalf("Terms() = %d", g.Terms())
		}
		offset, scale := g.Standardization()
		for range 20 {
			x := make([]float64, d)
			for j := range x {
				x[j] = rng.Float64()
			}
			full, _ := g.Predict(x)
			sum := offset + scale*g.Mean()
			for j := range groups {
				dm, dv := make([]float64, d), make([]float64, d)
				m, v := g.PredictTerm(j, x, dm, dv)
				sum += m
				if v < 0 {
					t.Fatalf("term %d: variance %v", j, v)
				}
				for c := range x {
					xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
					xp[c] += 1e-6
					xm[c] -= 1e-6
					mp, vp := g.PredictTerm(j, xp, nil, nil)
					mm, vm := g.PredictTerm(j, xm, nil, nil)
					if fd := (mp - mm) / 2e-6; math.Abs(fd-dm[c]) > 1e-4*(1+math.Abs(fd)) {
						t.Fatalf("term %d: ∂μ/∂x_%d = %v, finite difference %v", j, c, dm[c], fd)
					}
					if fd := (vp - vm) / 2e-6; math.Abs(fd-dv[c]) > 1e-4*(1+math.Abs(fd)) {
						t.Fatalf("term %d: ∂σ²/∂x_%d = %v, finite difference %v", j, c, dv[c], fd)
					}
				}
			}
			if math.Abs(sum-full) > 1e-9*(1+math.Abs(full)) {
				t.Fatalf("%v: the terms' means sum to %v, the full mean is %v", mean, sum, full)
			}
		}
		// PredictTermBatch gives PredictTerm's values, one by one (below
		// the block size) and in blocks.
		for _, m := range []int{5, 300} {
			P := make([][]float64, m)
			for i := range P {
				P[i] = make([]float64, d)
				for j := range P[i] {
					P[i][j] = rng.Float64()
				}
			}
			for j := range groups {
				means, vars := make([]float64, m), make([]float64, m)
				g.PredictTermBatch(j, P, means, vars)
				for i, x := range P {
					mu, v := g.PredictTerm(j, x, nil, nil)
					if math.Abs(mu-means[i]) > 1e-12*(1+math.Abs(mu)) || math.Abs(v-vars[i]) > 1e-12*(1+v) {
						t.Fatalf("term %d, point %d of %d: batch (%v, %v), one by one (%v, %v)", j, i, m, means[i], vars[i], mu, v)
					}
				}
			}
		}
	}
}
