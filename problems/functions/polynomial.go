package functions

// Polynomial functions of any dimension: Rosenbrock and Styblinski–Tang.

// newRosenbrock returns the Rosenbrock valley on [−5, 10]^d (d ≥ 2)
//
//	f(x) = Σ_{i<d} [100(x_{i+1} − x_i²)² + (x_i − 1)²],
//
// zero at x = 1.
func newRosenbrock(d int) Function {
	lo, hi := box(d, -5, 10)
	return Function{
		Name:       "rosenbrock",
		Dim:        d,
		Lower:      lo,
		Upper:      hi,
		Optimum:    0,
		Minimizers: [][]float64{filled(d, 1)},
		F: func(x []float64) float64 {
			var sum float64
			for i := 0; i+1 < len(x); i++ {
				a := x[i+1] - x[i]*x[i]
				b := x[i] - 1
				sum += 100*a*a + b*b
			}
			return sum
		},
	}
}

// Styblinski–Tang per-coordinate minimiser (the root of 4t³ − 32t + 5 = 0
// in [−5, 0]) and the minimum of one term ½(t⁴ − 16t² + 5t) there.
const (
	styblinskiTangArgmin = -2.903534027771178
	styblinskiTangTerm   = -39.16616570377142
)

// newStyblinskiTang returns the Styblinski–Tang function on [−5, 5]^d
//
//	f(x) = ½ Σ_i (x_i⁴ − 16x_i² + 5x_i),
//
// which is separable, so f* = −39.16616570377142·d at x_i = −2.903534027771178.
func newStyblinskiTang(d int) Function {
	lo, hi := box(d, -5, 5)
	return Function{
		Name:       "styblinskitang",
		Dim:        d,
		Lower:      lo,
		Upper:      hi,
		Optimum:    styblinskiTangTerm * float64(d),
		Minimizers: [][]float64{filled(d, styblinskiTangArgmin)},
		F: func(x []float64) float64 {
			var sum float64
			for _, v := range x {
				v2 := v * v
				sum += v2*v2 - 16*v2 + 5*v
			}
			return sum / 2
		},
	}
}
