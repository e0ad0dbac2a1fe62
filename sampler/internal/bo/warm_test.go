package bo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// TestReuseGrowsTheFactor: beyond largeHistory observations, Reuse between
// refits grows the model it built last (gp.Extend) instead of
// factorising afresh, and the model is the one a fresh factorisation
// gives; at most largeHistory observations, or on other inputs, it
// factorises.
func TestReuseGrowsTheFactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = largeHistory + 6, 3
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		y[i] = math.Sin(5*X[i][0]) + X[i][1]
	}
	k := kernel.NewStationary(kernel.Matern52, d, true)
	var w WarmStart
	w.Set("", append(k.Params(nil), math.Log(1e-3)), 0)
	reuse := func(m int) *gp.GP {
		g, _ := w.Reuse("", k.Clone(), gp.MeanZero, X[:m], y[:m], true)
		if g == nil || g.Len() != m {
			t.Fatalf("Reuse on %d observations: %v", m, g)
		}
		return g
	}
	for m, grown := range map[int]int{largeHistory - 1: 0, largeHistory: 0} {
		if reuse(m); w.Grown() != grown {
			t.Fatalf("at %d observations %d models grown, want %d", m, w.Grown(), grown)
		}
	}
	reuse(largeHistory + 1) // kept, not grown: the model at 200 was not kept
	for m := largeHistory + 2; m <= n; m += 2 {
		g := reuse(m)
		ref, err := gp.New(X[:m], y[:m], k, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range X[:5] {
			m1, v1 := g.Predict(x)
			m2, v2 := ref.Predict(x)
			if math.Abs(m1-m2) > 1e-9 || math.Abs(v1-v2) > 1e-9 {
				t.Fatalf("%d observations: grown model predicts (%v, %v), fresh (%v, %v)", m, m1, v1, m2, v2)
			}
		}
	}
	if w.Grown() != 3 {
		t.Errorf("%d models grown, want 3", w.Grown())
	}
	// Other inputs in front: factorised afresh.
	X[0] = []float64{0.5, 0.5, 0.5}
	reuse(n)
	if w.Grown() != 3 {
		t.Errorf("a model grown on other inputs: %d grown, want 3", w.Grown())
	}
}
