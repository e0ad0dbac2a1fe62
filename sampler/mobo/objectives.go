package mobo

import (
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
)

// normalised returns every observation's objectives, each mapped
// linearly onto [0, 1] over the observations (an objective without range
// only shifted to 0), so that the reference point's margin and ParEGO's
// weights mean the same whatever the objectives' units. A
// single-objective history (Objectives ≤ 1, Ys nil) has the one
// objective Y, for which EHVI is EI.
func normalised(h *sampler.History) [][]float64 {
	Y := make([][]float64, len(h.Observed))
	for i, o := range h.Observed {
		if h.Objectives > 1 && len(o.Ys) == h.Objectives {
			Y[i] = append([]float64(nil), o.Ys...)
		} else {
			Y[i] = []float64{o.Y}
		}
	}
	if len(Y) == 0 {
		return Y
	}
	for k := range Y[0] {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, y := range Y {
			lo, hi = min(lo, y[k]), max(hi, y[k])
		}
		r := hi - lo
		if !(r > 0) || math.IsInf(r, 0) {
			r = 1
		}
		for _, y := range Y {
			y[k] = (y[k] - lo) / r
		}
	}
	return Y
}

// simplexWeights draws ParEGO's weight vector uniformly from the simplex
// (normalised exponential draws). Knowles 2006 draws from the
// (s+1 choose m−1) vectors of a grid with s steps; the uniform draw is
// qParEGO's (Daulton et al. 2020), for any number of objectives.
func simplexWeights(m int, rng *rand.Rand) []float64 {
	w := make([]float64, m)
	sum := 0.0
	for k := range w {
		w[k] = rng.ExpFloat64()
		sum += w[k]
	}
	for k := range w {
		w[k] /= sum
	}
	return w
}

// chebyshev returns ParEGO's augmented Chebyshev scalarisation of the
// normalised objectives Y, one value each (Knowles 2006):
// max_k λ_k y_k + ρ Σ_k λ_k y_k, minimised.
func chebyshev(Y [][]float64, lambda []float64, rho float64) [][]float64 {
	out := make([][]float64, len(Y))
	for i, y := range Y {
		top, sum := math.Inf(-1), 0.0
		for k, v := range y {
			top, sum = max(top, lambda[k]*v), sum+lambda[k]*v
		}
		out[i] = []float64{top + rho*sum}
	}
	return out
}
