package gpbo

import (
	"cmp"
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

// local returns the observations the GP is fitted to and the box of the
// unit space the acquisition is maximised in: all of them and the whole
// space up to ExactLimit observations; beyond, Subset of them, in their
// order: half the nearest the incumbent in the model's inputs, whose
// bounding box on the continuous coordinates is the box, a trust region
// as TuRBO's (Eriksson et al. 2019) but drawn from the data, and half the
// latest, so that the model sees where its own last proposals landed and
// does not propose them again. (Subsets without the latest stalled:
// docs/performance.md, "Large histories".) The incumbent and the
// configurations not to propose again still come from every observation.
func (g *GPBO) local(sp *space.Space, obs []sampler.Observation) (sub []sampler.Observation, lo, hi []float64) {
	limit, size := g.limits()
	if len(obs) <= limit {
		return obs, nil, nil
	}
	best := sp.Features(obs[max(0, bo.BestIndex(obs))].X, nil)
	dist := make([]float64, len(obs))
	f := make([]float64, len(best))
	for i, o := range obs {
		for j, v := range sp.Features(o.X, f) {
			dist[i] += (v - best[j]) * (v - best[j])
		}
	}
	byDistance := make([]int, len(obs))
	for i := range byDistance {
		byDistance[i] = i
	}
	slices.SortStableFunc(byDistance, func(a, b int) int { return cmp.Compare(dist[a], dist[b]) })
	chosen := make([]bool, len(obs))
	lo, hi = make([]float64, sp.Len()), make([]float64, sp.Len())
	for j := range lo {
		lo[j], hi[j] = 1, 0
		if !sp.Continuous(j) {
			lo[j], hi[j] = 0, 1
		}
	}
	for _, i := range byDistance[:size/2] {
		chosen[i] = true
		for j, v := range obs[i].X {
			if sp.Continuous(j) {
				lo[j], hi[j] = min(lo[j], v), max(hi[j], v)
			}
		}
	}
	for i, k := len(obs)-1, size/2; k < size; i-- {
		if !chosen[i] {
			chosen[i] = true
			k++
		}
	}
	sub = make([]sampler.Observation, 0, size)
	for i, o := range obs {
		if chosen[i] {
			sub = append(sub, o)
		}
	}
	return sub, lo, hi
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
