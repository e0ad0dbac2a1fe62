package functions

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The FITBO variants are their base functions on [0,1]^d with the output
// maps of the spec's Corrections, with the published optima.
func TestFITBOVariants(t *testing.T) {
	for _, c := range []struct {
		name, base string
		a, b       float64 // output a·y + b
		fstar, tol float64 // the spec's f* and its precision
	}{
		{"branin_fitbo", "branin", 0.1, -15, 0.0397887 - 15, 1e-7},
		{"branin_fitbo", "branin", 0.1, -15, -14.96, 1e-3},
		{"eggholder_fitbo", "eggholder", 0.01, 0, -9.596407, 1e-6},
		{"hartmann6_fitbo", "hartmann6", 10, 15, -18.2237, 1e-4},
	} {
		f, err := Get(c.name, 0)
		if err != nil {
			t.Fatal(err)
		}
		base, _ := Get(c.base, 0)
		if math.Abs(f.Optimum-c.fstar) > c.tol {
			t.Errorf("%s: f* = %.10g, want %.10g", c.name, f.Optimum, c.fstar)
		}
		for _, x := range f.Minimizers {
			if v := f.Eval(x); math.Abs(v-f.Optimum) > 1e-4 {
				t.Errorf("%s: f(%v) = %.10g, f* = %.10g", c.name, x, v, f.Optimum)
			}
		}
		for i := range f.Dim {
			if f.Lower[i] != 0 || f.Upper[i] != 1 {
				t.Fatalf("%s: box [%v, %v], want the unit box", c.name, f.Lower, f.Upper)
			}
		}
		rng := rand.New(rand.NewPCG(1, uint64(f.Dim)))
		u := make([]float64, f.Dim)
		for range 100 {
			for i := range u {
				u[i] = rng.Float64()
			}
			want := c.a*base.EvalUnit(u) + c.b
			if got := f.Eval(u); math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Fatalf("%s(%v) = %.17g, want %.17g", c.name, u, got, want)
			}
		}
	}
}
