package nasbowl

import (
	"context"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Regularised evolution's settings, not given in the seeds (spec
// nas-graph-bo.md §8 Decision).
const (
	evolutionPopulation = 100 // P_re
	evolutionTournament = 10  // S
	evolutionInit       = 10  // random initial points, counted in the budget
)

// Evolution is regularised (ageing) evolution (Real et al. 2019), the
// NAS-Bench baseline of seed 000 §7.5.2 [nas-graph-bo.md §8]: the
// population is the last 100 completed trials, so the oldest leaves as a
// new one arrives; each suggestion mutates the best of a tournament of 10
// drawn from it. On an architecture space (NB201's cell) the mutation is
// NAS-BOWL's (spec §5.3), on any other each parameter is redrawn with
// probability 1/d, at least one. The population is read from the history,
// so the sampler keeps no state.
type Evolution struct{}

func (Evolution) Name() string { return "re" }

// Designing is true for the random initial population.
func (Evolution) Designing(h *sampler.History) bool {
	return bo.InDesign(len(h.Observed), len(h.Pending), evolutionInit)
}

func (e Evolution) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if e.Designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	pop := h.Observed[max(0, len(h.Observed)-evolutionPopulation):]
	var parent sampler.Observation
	for i, k := range rng.Perm(len(pop))[:min(evolutionTournament, len(pop))] {
		if i == 0 || pop[k].Y < parent.Y {
			parent = pop[k]
		}
	}
	mutate := func(u []float64) []float64 { return mutateParams(h.Space, u, rng) }
	if c, err := cellOf(h.Space); err == nil {
		mutate = func(u []float64) []float64 { return c.mutate(u, rng) }
	}
	seen := bo.Seen(h)
	for range bo.MaxFreshTries {
		if u := mutate(parent.X); !seen[h.Space.Key(u)] {
			return u, nil
		}
	}
	return bo.UntriedPoint(h, rng), nil
}

// mutateParams returns u with each parameter redrawn uniformly with
// probability 1/d, at least one, and redrawn until the configuration
// differs from u when it can.
func mutateParams(sp *space.Space, u []float64, rng *rand.Rand) []float64 {
	key := sp.Key(u)
	for range bo.MaxFreshTries {
		v, changed := slices.Clone(u), false
		draw := sp.Sample(rng)
		for i := range v {
			if rng.IntN(sp.Len()) == 0 {
				v[i], changed = draw[i], true
			}
		}
		if !changed {
			i := rng.IntN(sp.Len())
			v[i] = draw[i]
		}
		sp.Round(v)
		if sp.Key(v) != key {
			return v
		}
	}
	return sp.Sample(rng)
}
