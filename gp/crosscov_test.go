package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// PostCov agrees with the joint posterior covariance Cov, and PostCovGrad's
// gradient with central finite differences.
func TestPostCov(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, y := make([][]float64, 12), make([]float64, 12)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		y[i] = 5 * math.Sin(3*X[i][0]) * X[i][1]
	}
	k := kernel.NewStationary(kernel.Matern52, 3, true)
	k.SetParams([]float64{math.Log(0.4), math.Log(0.3), math.Log(0.6), math.Log(1.3)})
	m, err := New(X, y, k, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	A := [][]float64{{0.1, 0.2, 0.3}, X[2], {0.9, 0.5, 0.1}}
	x := []float64{0.4, 0.6, 0.2}
	got := make([]float64, len(A))
	m.PostCov(A, x, got)
	cov := m.Cov(append(append([][]float64(nil), A...), x))
	for i := range A {
		if want := cov.At(i, len(A)); math.Abs(got[i]-want) > 1e-9*(1+math.Abs(want)) {
			t.Errorf("PostCov[%d] = %v, Cov says %v", i, got[i], want)
		}
	}
	grad := make([]float64, 3)
	for i, a := range A {
		v := m.PostCovGrad(a, x, grad)
		if math.Abs(v-got[i]) > 1e-12*(1+math.Abs(v)) {
			t.Errorf("PostCovGrad[%d] value %v, PostCov %v", i, v, got[i])
		}
		for j := range x {
			const h = 1e-6
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[j] += h
			xm[j] -= h
			one := make([]float64, 1)
			m.PostCov([][]float64{a}, xp, one)
			fp := one[0]
			m.PostCov([][]float64{a}, xm, one)
			fd := (fp - one[0]) / (2 * h)
			if math.Abs(fd-grad[j]) > 1e-5*(1+math.Abs(fd)) {
				t.Errorf("∂k_post(a%d, x)/∂x%d = %v, finite differences %v", i, j, grad[j], fd)
			}
		}
	}
}
