package functions

// The FITBO benchmarks [000 §3.3.3; spec §8.2, §9.3] run on the unit box
// [0,1]^d, mapped linearly onto each function's native box, with the
// outputs rescaled as the FITBO reference code rescales them (spec
// gp-and-acquisitions, Corrections, "FITBO benchmark scales"):
//
//	branin_fitbo     y/10 − 15     f* = 0.0397887… − 15 = −14.96021…
//	eggholder_fitbo  y/100         f* = −9.596407
//	hartmann6_fitbo  10(y + 1.5)   f* = −18.2237
//
// These are the noise-free functions; the benchmark's observation noise
// (variance 1e-3 on these scales) is the problems package's
// "NAME:noisy" variant, whose regret is measured on the function here.

func newBraninFITBO() Function { return fitbo(newBranin(), "branin_fitbo", 0.1, -15) }

func newEggholderFITBO() Function { return fitbo(newEggholder(), "eggholder_fitbo", 0.01, 0) }

func newHartmann6FITBO() Function { return fitbo(newHartmann6(), "hartmann6_fitbo", 10, 15) }

// fitbo returns base on [0,1]^d with output a·f + c: u ∈ [0,1]^d is mapped
// to lower + u(upper − lower), and the optimum and minimisers follow.
func fitbo(base Function, name string, a, c float64) Function {
	lo, hi := base.Lower, base.Upper
	f := base.F
	d := base.Dim
	mins := make([][]float64, len(base.Minimizers))
	for i, x := range base.Minimizers {
		mins[i] = make([]float64, d)
		for j, v := range x {
			mins[i][j] = (v - lo[j]) / (hi[j] - lo[j])
		}
	}
	lower, upper := box(d, 0, 1)
	return Function{
		Name:       name,
		Dim:        d,
		Lower:      lower,
		Upper:      upper,
		Optimum:    a*base.Optimum + c,
		Minimizers: mins,
		F: func(u []float64) float64 {
			x := make([]float64, len(u))
			for j, v := range u {
				x[j] = lo[j] + v*(hi[j]-lo[j])
			}
			return a*f(x) + c
		},
	}
}
