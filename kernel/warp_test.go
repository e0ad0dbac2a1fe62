package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestWarpIdentityAndShape: with a = b = 1 the warp is the identity (to
// ε), so Warp is its base kernel; with other shapes w stays a monotone
// map of [0, 1] into itself (its ends move by ε^a: BoTorch's ε too), and
// a > 1, b = 1 compresses the low end.
func TestWarpIdentityAndShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	base := NewStationary(Matern52, 3, true)
	w := NewWarp(base.Clone(), []int{0, 1, 2})
	for range 50 {
		x, y := randPoint(3, rng), randPoint(3, rng)
		if a, b := w.Eval(x, y), base.Eval(x, y); math.Abs(a-b) > 1e-6 {
			t.Fatalf("a = b = 1: k(%v, %v) = %v, base %v", x, y, a, b)
		}
	}
	for _, shape := range [][2]float64{{0.3, 2}, {4, 0.5}, {1, 1}, {10, 10}} {
		p := w.Params(nil)
		nb := base.NumParams()
		p[nb], p[nb+3] = math.Log(shape[0]), math.Log(shape[1])
		w.SetParams(p)
		prev := -1.0
		for i := 0; i <= 100; i++ {
			v, dx, _, _ := w.at(0, float64(i)/100)
			if v < prev || v < 0 || v > 1 || dx < 0 {
				t.Fatalf("shape %v: w(%v) = %v after %v, w' = %v: not a monotone map of [0, 1]", shape, float64(i)/100, v, prev, dx)
			}
			prev = v
		}
	}
	p := w.Params(nil)
	p[base.NumParams()], p[base.NumParams()+3] = math.Log(3), 0
	w.SetParams(p)
	if v, _, _, _ := w.at(0, 0.5); math.Abs(v-0.125) > 1e-6 {
		t.Errorf("a = 3, b = 1: w(0.5) = %v, want 0.5³ = 0.125", v)
	}
}
