package mixed

import "math/rand/v2"

// Contamination control [spec §6.5; reference code: QUVA-Lab/COMBO]: at each
// of 25 stages decide whether to apply a costly prevention (1) or not (0).
// Contamination Z evolves in 100 simulations with dynamics drawn once per
// instance; the cost is the prevention cost minus the slack of the
// probabilistic constraints P(Z_i < U) ≥ 1 − ε, plus an L1 penalty.
const (
	contStages = 25
	contSims   = 100
	contU      = 0.1
	contEps    = 0.05
	contRho    = 1.0
	contCost   = 1.0
	// contLambda is λ_reg, one of the values COMBO used [spec §6.5 Decision].
	contLambda = 1e-2
	// contSeed is the instance seed [spec §6.5 Decision].
	contSeed = 0
)

// contamination holds the dynamics of one instance.
type contamination struct {
	initZ   []float64   // Z_init ~ Beta(1, 30), per simulation
	lambdas [][]float64 // contamination rates ~ Beta(1, 17/3), per stage and simulation
	gammas  [][]float64 // restoration rates ~ Beta(1, 3/7), per stage and simulation
}

// newContaminationDynamics draws the dynamics. The reference code draws each
// of the three arrays from a fresh generator with the same seed; so do we,
// with a Go PCG.
func newContaminationDynamics(seed uint64) *contamination {
	stream := func() *rand.Rand { return rand.New(rand.NewPCG(seed, 0)) }
	c := &contamination{initZ: make([]float64, contSims)}
	fillBeta(stream(), c.initZ, 1, 30)
	draw := func(b float64) [][]float64 {
		rng := stream()
		m := make([][]float64, contStages)
		for i := range m {
			m[i] = make([]float64, contSims)
			fillBeta(rng, m[i], 1, b)
		}
		return m
	}
	c.lambdas = draw(17.0 / 3)
	c.gammas = draw(3.0 / 7)
	return c
}

// cost evaluates the prevention schedule x ∈ {0,1}^25.
func (c *contamination) cost(x []int) float64 {
	z := append([]float64(nil), c.initZ...)
	var f, nx float64
	for i, v := range x {
		xi := float64(v)
		k := 0
		for s := range z {
			z[s] = c.lambdas[i][s]*(1-xi)*(1-z[s]) + (1-c.gammas[i][s]*xi)*z[s]
			if z[s] < contU {
				k++
			}
		}
		constraint := float64(k)/contSims - (1 - contEps)
		f += contCost*xi - contRho*constraint
		nx += xi
	}
	return f + contLambda*nx
}

// newContamination returns the Contamination problem; its optimum is not
// known.
func newContamination() *Problem {
	c := newContaminationDynamics(contSeed)
	choices := make([][]string, contStages)
	for i := range choices {
		choices[i] = binary
	}
	return newProblem("contamination", choices, nil, nil, func(h []int, _ []float64) float64 {
		return c.cost(h)
	})
}
