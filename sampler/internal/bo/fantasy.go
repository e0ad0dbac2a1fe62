package bo

import (
	"math"
	"slices"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// Believe adds every pending point to the model as an observation at its
// posterior mean (Kriging Believer), so the acquisition does not propose
// what is already running. It also returns the lowest fantasised value
// (+Inf with none), which the improvement-based acquisitions must count as
// observed: see FantasyIncumbent.
//
// Kriging Believer adds the points one after another, each at the mean of
// the model that has the earlier ones [000 App. B.1, Alg. 17]; but an
// observation at the model's own mean leaves the mean everywhere
// unchanged (the update is proportional to y − μ = 0), so all are added
// at once, at their means under m: one copy of the Cholesky factor rather
// than one per point (at n = 800 with 64 pending, 389 MB per suggestion;
// BenchmarkGPBOSuggestPending). When that fails (a point the model cannot
// take, e.g. a duplicate), they are added one by one, skipping such points.
func Believe(sp *space.Space, m *gp.GP, pending [][]float64) (*gp.GP, float64) {
	F := make([][]float64, len(pending))
	for i, p := range pending {
		F[i] = sp.Features(p, nil)
	}
	return BelieveAll(m, F)
}

// BelieveAll is Believe on the model's inputs.
func BelieveAll(m *gp.GP, F [][]float64) (*gp.GP, float64) {
	if len(F) == 0 {
		return m, math.Inf(1)
	}
	means := make([]float64, len(F))
	m.PredictBatch(F, means, make([]float64, len(F)))
	return fantasize(m, F, means)
}

// Lie adds every pending point of h to the model at the best observed
// value (the constant liar, cl-min).
func Lie(sp *space.Space, m *gp.GP, h *sampler.History) *gp.GP {
	if len(h.Pending) == 0 {
		return m
	}
	best := BestValue(h.Observed)
	F, y := make([][]float64, len(h.Pending)), make([]float64, len(h.Pending))
	for i, p := range h.Pending {
		F[i], y[i] = sp.Features(p, nil), best
	}
	m, _ = fantasize(m, F, y)
	return m
}

// fantasize adds the points F (len > 0) to m with the targets y, all at
// once, or one by one when that fails, skipping those the model cannot
// take (e.g. a duplicate); it returns the lowest target added.
func fantasize(m *gp.GP, F [][]float64, y []float64) (*gp.GP, float64) {
	if fm, err := m.Fantasize(F, y); err == nil {
		return fm, slices.Min(y)
	}
	low := math.Inf(1)
	for i, f := range F {
		fm, err := m.Fantasize([][]float64{f}, y[i:i+1])
		if err != nil {
			continue // a point the model cannot take changes nothing
		}
		m, low = fm, min(low, y[i])
	}
	return m, low
}

// FantasyIncumbent is the incumbent y* of EI, log-EI and PI under Kriging
// Believer: the lower of the best observed value and the lowest fantasised
// one. Kriging Believer treats the fantasies as observations, D' = D ∪
// {(x_b, μ_D'(x_b))} [000 App. B.1, Alg. 17; async, busy points first:
// 000 §4.6.1; async-batch-playbook.md §2], and y* is the best observed
// target (gp-and-acquisitions.md §4), so it is the best of D'. With y*
// from D alone, a fantasy below it is a sure improvement y* − μ where the
// variance is small, and EI peaks right beside the pending point: in a
// batch of 8 after 120 trials, 61 of gpbo's 70 later points lay within
// 1e-6 of a pending one (TestPendingPointsAreNotNearlyRepeated;
// docs/samplers.md, "Pending trials"). Failed and pruned points are
// fantasised too (History.WithoutValue) and count the same way, so EI
// does not crowd beside them either.
func FantasyIncumbent(observed, fantasised float64) float64 { return min(observed, fantasised) }
