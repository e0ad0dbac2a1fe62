package mixed

import "math/rand/v2"

// Pest Control [spec §6.4; reference code: QUVA-Lab/COMBO]: at each of n
// stages choose no pesticide (0) or one of four pesticides (1..4). The cost
// is the price paid plus, summed over stages, the fraction of 100 simulated
// fields whose pest fraction exceeds U = 0.1.
const (
	pestStages          = 25
	difficultPestStages = 80
	pestChoices         = 5
	pestSims            = 100
	pestU               = 0.1
	// pestSeed is the fixed seed every evaluation re-seeds its generator
	// with, making the objective deterministic [spec §6.4 Decision].
	pestSeed = 20
)

// Pesticide constants, indexed by choice (entry 0, no pesticide, unused).
var (
	pestControlBeta = [pestChoices]float64{0, 2.0 / 7, 3.0 / 7, 3.0 / 7, 5.0 / 7}
	pestTolerance   = [pestChoices]float64{0, 1.0 / 7, 2.5 / 7, 2.0 / 7, 0.5 / 7}
	pestPrice       = [pestChoices]float64{0, 1.0, 0.8, 0.7, 0.5}
	pestMaxDiscount = [pestChoices]float64{0, 0.2, 0.3, 0.3, 0.0}
)

// newPest returns Pest Control with the given number of stages (25 for pest,
// 80 for difficultpest). Its optimum is not known.
func newPest(name string, stages int) *Problem {
	levels := []string{"0", "1", "2", "3", "4"}
	choices := make([][]string, stages)
	for i := range choices {
		choices[i] = levels
	}
	return newProblem(name, choices, nil, nil, func(h []int, _ []float64) float64 {
		return pestCost(h)
	})
}

// pestCost simulates the schedule x. The draws follow the reference code's
// order (initial fractions, then per stage the spread rates and, under a
// pesticide, the control rates), though from a Go PCG stream, not NumPy's.
func pestCost(x []int) float64 {
	n := float64(len(x))
	rng := rand.New(rand.NewPCG(pestSeed, 0))
	beta := pestControlBeta // a copy: tolerance builds up within one evaluation only
	var count [pestChoices]int
	for _, v := range x {
		count[v]++
	}
	curr := make([]float64, pestSims)
	next := make([]float64, pestSims)
	spread := make([]float64, pestSims)
	fillBeta(rng, curr, 1, 30)
	var paid, above float64
	for _, v := range x {
		fillBeta(rng, spread, 1, 17.0/3)
		if v > 0 {
			for s := range next {
				next[s] = (1 - betaVariate(rng, 1, beta[v])) * curr[s]
			}
			beta[v] += pestTolerance[v] / n
			// The discount grows with the number of stages using the same
			// pesticide, counted over the whole schedule.
			paid += pestPrice[v] * (1 - pestMaxDiscount[v]/n*float64(count[v]))
		} else {
			for s := range next {
				next[s] = spread[s]*(1-curr[s]) + curr[s]
			}
		}
		// The threshold is checked on the fraction before this stage's update.
		k := 0
		for _, c := range curr {
			if c > pestU {
				k++
			}
		}
		above += float64(k) / pestSims
		curr, next = next, curr
	}
	return paid + above
}
