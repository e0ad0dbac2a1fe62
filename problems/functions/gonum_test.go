package functions

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/optimize/functions"
)

// Independent implementations in gonum v0.17.0 serve as oracles [spec §8.1].
func TestAgainstGonum(t *testing.T) {
	for _, tc := range []struct {
		name   string
		dims   []int
		oracle func([]float64) float64
	}{
		{"ackley", []int{1, 2, 5, 10}, functions.Ackley{}.Func},
		{"beale", []int{2}, functions.Beale{}.Func},
		{"branin", []int{2}, functions.BraninHoo{}.Func},
		{"camel6", []int{2}, functions.CamelSix{}.Func},
		{"eggholder", []int{2}, functions.Eggholder{}.Func},
		{"rosenbrock", []int{2, 3, 10}, functions.ExtendedRosenbrock{}.Func},
		{"levy", []int{1, 2, 5, 10}, functions.Levy{}.Func},
	} {
		for _, d := range tc.dims {
			t.Run(fmt.Sprintf("%s/%d", tc.name, d), func(t *testing.T) {
				f, err := Get(tc.name, d)
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(d), 42))
				u := make([]float64, d)
				x := make([]float64, d)
				for range 1000 {
					for i := range u {
						u[i] = rng.Float64()
						x[i] = f.Lower[i] + u[i]*(f.Upper[i]-f.Lower[i])
					}
					got, want := f.EvalUnit(u), tc.oracle(x)
					if math.Abs(got-want) > 1e-12*math.Max(1, math.Abs(want)) {
						t.Fatalf("f(%v) = %.17g, gonum %.17g", x, got, want)
					}
				}
			})
		}
	}
}
