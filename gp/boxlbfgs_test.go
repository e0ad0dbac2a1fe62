package gp

import (
	"math"
	"testing"
)

func TestBoxLBFGS(t *testing.T) {
	rosen := func(x, g []float64) (float64, bool) {
		a, b := 1-x[0], x[1]-x[0]*x[0]
		if g != nil {
			g[0] = -2*a - 400*x[0]*b
			g[1] = 200 * b
		}
		return a*a + 100*b*b, true
	}
	// Shifted quadratic whose minimiser (2, −3, 0.5) lies outside the box in
	// two coordinates, so those bounds become active.
	c := []float64{2, -3, 0.5}
	quad := func(x, g []float64) (float64, bool) {
		var f float64
		for i := range x {
			d := x[i] - c[i]
			f += (float64(i) + 1) * d * d
			if g != nil {
				g[i] = 2 * (float64(i) + 1) * d
			}
		}
		return f, true
	}
	// Infeasible region x > 0.7 (like a failed factorisation): the line
	// search must back off from it.
	wall := func(x, g []float64) (float64, bool) {
		if x[0] > 0.7 {
			return math.Inf(1), false
		}
		if g != nil {
			g[0] = -1
		}
		return -x[0], true
	}
	for _, tc := range []struct {
		name   string
		f      boxFunc
		x0     []float64
		lo, hi []float64
		want   []float64
		tol    float64
	}{
		{"rosenbrock", rosen, []float64{-1.2, 1}, []float64{-5, -5}, []float64{5, 5}, []float64{1, 1}, 1e-4},
		{"rosenbrock-bound", rosen, []float64{-1.2, 1}, []float64{-5, -5}, []float64{0.5, 5}, []float64{0.5, 0.25}, 1e-4},
		{"quadratic-active", quad, []float64{0, 0, 0}, []float64{-1, -1, -1}, []float64{1, 1, 1}, []float64{1, -1, 0.5}, 1e-6},
		{"start-outside", quad, []float64{9, -9, 9}, []float64{-1, -1, -1}, []float64{1, 1, 1}, []float64{1, -1, 0.5}, 1e-6},
		{"infeasible-wall", wall, []float64{0}, []float64{-1}, []float64{1}, []float64{0.7}, 1e-3},
	} {
		r, ok := boxLBFGS(tc.f, tc.x0, tc.lo, tc.hi, 200)
		if !ok {
			t.Fatalf("%s: failed at the start", tc.name)
		}
		for i := range tc.want {
			if math.Abs(r.x[i]-tc.want[i]) > tc.tol {
				t.Errorf("%s: x = %v after %d iterations, want %v", tc.name, r.x, r.iters, tc.want)
				break
			}
		}
	}
	if _, ok := boxLBFGS(wall, []float64{0.9}, []float64{-1}, []float64{1}, 10); ok {
		t.Error("infeasible start reported ok")
	}
}
