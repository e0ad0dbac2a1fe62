package image

import (
	"math"
	"math/rand/v2"
)

// The GenAttack-like baseline of spec §3: population 6 and mutation rate
// 0.05 are the spec's; the mutation step α (in units of δ_max) and the
// selection temperature τ are Decisions, GenAttack's usual values.
const (
	population   = 6
	mutationRate = 0.05
	mutationStep = 0.15
	temperature  = 0.1
)

// genAttack is a simple re-implementation of GenAttack (Alzantot et al.
// 2019) in the same d_r space and decoder as the BO methods [spec §3]:
// each generation keeps its fittest member (elitism, not asked again) and
// breeds the others from parents drawn by a softmax of the fitness y/τ,
// each coordinate taken from one parent with probability proportional to
// its selection weight, then mutated with probability ρ by a uniform step
// of at most α·δ_max.
func genAttack(p *problem, cfg Config, rng *rand.Rand) error {
	d := cfg.Side * cfg.Side * p.origin.C
	pop := make([][]float64, population)
	fit := make([]float64, population)
	for i := range pop {
		pop[i] = make([]float64, d)
		for k := range pop[i] {
			pop[i][k] = rng.Float64()
		}
		y, _, err := p.ask(pop[i], cfg.Side)
		if err != nil {
			return err
		}
		fit[i] = y
	}
	for {
		elite := 0
		for i, f := range fit {
			if f > fit[elite] {
				elite = i
			}
		}
		w := make([]float64, population)
		for i, f := range fit {
			w[i] = math.Exp((f - fit[elite]) / temperature) // softmax, stable
		}
		next := [][]float64{pop[elite]}
		nextFit := []float64{fit[elite]}
		for len(next) < population {
			a, b := draw(w, rng), draw(w, rng)
			child := make([]float64, d)
			for k := range child {
				child[k] = pop[b][k]
				if rng.Float64() < w[a]/(w[a]+w[b]) {
					child[k] = pop[a][k]
				}
				if rng.Float64() < mutationRate {
					// u moves by half the step of δ = δ_max(2u − 1)
					child[k] = min(max(child[k]+mutationStep*(rng.Float64()-0.5), 0), 1)
				}
			}
			y, _, err := p.ask(child, cfg.Side)
			if err != nil {
				return err
			}
			next, nextFit = append(next, child), append(nextFit, y)
		}
		pop, fit = next, nextFit
	}
}

// draw samples an index with probability proportional to w.
func draw(w []float64, rng *rand.Rand) int {
	total := 0.0
	for _, v := range w {
		total += v
	}
	r := rng.Float64() * total
	for i, v := range w {
		if r -= v; r < 0 {
			return i
		}
	}
	return len(w) - 1
}
