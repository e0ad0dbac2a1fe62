package mixed

import (
	"math"
	"math/rand/v2"
)

// gammaVariate draws from Gamma(a, 1), a > 0, by the squeeze-and-reject
// method of Marsaglia & Tsang (2000, ACM TOMS 26(3)); a shape below 1 is
// boosted: Gamma(a) = Gamma(a+1)·U^{1/a}.
func gammaVariate(rng *rand.Rand, a float64) float64 {
	if a < 1 {
		g := gammaVariate(rng, a+1)
		u := 1 - rng.Float64() // (0,1], so the power is never 0^(1/a) by chance
		return g * math.Pow(u, 1/a)
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		z := rng.NormFloat64()
		v := 1 + c*z
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		z2 := z * z
		if u < 1-0.0331*z2*z2 || math.Log(u) < 0.5*z2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// betaVariate draws from Beta(a, b) as X/(X+Y) with X ~ Gamma(a), Y ~ Gamma(b)
// [spec §6.4 Decision]. Both gamma draws are positive, so the ratio is defined.
func betaVariate(rng *rand.Rand, a, b float64) float64 {
	x := gammaVariate(rng, a)
	y := gammaVariate(rng, b)
	return x / (x + y)
}

// fillBeta fills dst with independent Beta(a, b) draws, in order.
func fillBeta(rng *rand.Rand, dst []float64, a, b float64) {
	for i := range dst {
		dst[i] = betaVariate(rng, a, b)
	}
}
