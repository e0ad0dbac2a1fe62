package kernel

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// Subset slices consecutive columns in place and gathers any others; both
// ways must give exactly what the wrapped kernel gives on x[cols].
func TestSubsetSlicesOrGathers(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		cols   []int
		sliced bool
	}{
		{[]int{1, 2, 3}, true},
		{[]int{0, 1, 2, 3, 4}, true},
		{[]int{3}, true},
		{[]int{3, 1, 2}, false},
		{[]int{0, 2, 4}, false},
	} {
		inner := NewStationary(Matern52, len(tc.cols), true)
		p := inner.Params(nil)
		for i := range p {
			p[i] += 0.3 * rng.NormFloat64()
		}
		inner.SetParams(p)
		s := NewSubset(inner, tc.cols)
		if got := s.hi > 0; got != tc.sliced {
			t.Fatalf("cols %v: sliced = %v, want %v", tc.cols, got, tc.sliced)
		}
		for _, k := range []*Subset{s, s.Clone().(*Subset)} {
			for range 20 {
				x, y := make([]float64, 5), make([]float64, 5)
				for i := range x {
					x[i], y[i] = rng.Float64(), rng.Float64()
				}
				xs, ys := make([]float64, len(tc.cols)), make([]float64, len(tc.cols))
				for i, c := range tc.cols {
					xs[i], ys[i] = x[c], y[c]
				}
				if got, want := k.Eval(x, y), inner.Eval(xs, ys); got != want {
					t.Fatalf("cols %v: Eval = %v, want %v", tc.cols, got, want)
				}
				g, wantG := make([]float64, k.NumParams()), make([]float64, k.NumParams())
				if got, want := k.ParamGrad(x, y, g), inner.ParamGrad(xs, ys, wantG); got != want || !slices.Equal(g, wantG) {
					t.Fatalf("cols %v: ParamGrad = %v %v, want %v %v", tc.cols, got, g, want, wantG)
				}
				dx, dxs := []float64{9, 9, 9, 9, 9}, make([]float64, len(tc.cols))
				inner.InputGrad(xs, ys, dxs)
				wantDx := make([]float64, 5)
				for i, c := range tc.cols {
					wantDx[c] = dxs[i]
				}
				if k.InputGrad(x, y, dx); !slices.Equal(dx, wantDx) {
					t.Fatalf("cols %v: InputGrad = %v, want %v", tc.cols, dx, wantDx)
				}
			}
		}
	}
}
