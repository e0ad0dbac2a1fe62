package gpbo

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// Defaults of GPBO.ExactLimit and GPBO.Subset: up to 2,000 observations
// the GP is exact; beyond, it is fitted to 1,000 of them, so that a
// suggestion at n = 10,000 costs what one at n = 1,000 does
// (docs/gp-defaults.md, item 10; docs/performance.md).
const (
	defaultExactLimit = 2000
	defaultSubset     = 1000
)

// subset returns the observations the GP is fitted to: all of them up to
// ExactLimit, else Subset of them, "subset of data" (Rasmussen & Williams
// 2006 §8.3.1) with half of the subset the observations nearest the
// incumbent in the model's inputs, for resolution where the search is,
// and the other half drawn uniformly from the rest, so that the model
// still knows the rest of the space. The incumbent, the configurations
// not to propose again and the acquisition's starts still come from all
// observations (the History). The chosen ones keep their order.
func (g *GPBO) subset(sp *space.Space, obs []sampler.Observation, rng *rand.Rand) []sampler.Observation {
	limit, size := g.limits()
	if len(obs) <= limit {
		return obs
	}
	best := sp.Features(obs[max(0, bo.BestIndex(obs))].X, nil)
	type near struct {
		i int
		d float64
	}
	byDistance := make([]near, len(obs))
	for i, o := range obs {
		var d float64
		for j, v := range sp.Features(o.X, nil) {
			d += (v - best[j]) * (v - best[j])
		}
		byDistance[i] = near{i, d}
	}
	slices.SortStableFunc(byDistance, func(a, b near) int { return cmp.Compare(a.d, b.d) })
	local := size / 2
	rest := byDistance[local:]
	for k := range size - local { // a partial Fisher–Yates shuffle of the rest
		j := k + rng.IntN(len(rest)-k)
		rest[k], rest[j] = rest[j], rest[k]
	}
	chosen := make([]int, size)
	for k, c := range byDistance[:size] {
		chosen[k] = c.i
	}
	slices.Sort(chosen)
	out := make([]sampler.Observation, size)
	for k, i := range chosen {
		out[k] = obs[i]
	}
	return out
}

// RefitStep is how many observations apart gpbo's full hyper-parameter
// fits are at n observations (1 up to 200; bo.FullFit): any RefitStep(n)
// consecutive suggestions hold exactly one, which is how the suggestion
// benchmarks count them.
func RefitStep(n int) int { return bo.RefitStep(n) }

// limits returns ExactLimit and Subset, or their defaults.
func (g *GPBO) limits() (limit, size int) {
	return bo.OrDefault(g.ExactLimit, defaultExactLimit), bo.OrDefault(g.Subset, defaultSubset)
}
