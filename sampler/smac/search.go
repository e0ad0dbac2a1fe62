package smac

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// The one-exchange neighbourhood of a Float parameter: NumericNeighbours
// values drawn around its coordinate from a Gaussian of standard deviation
// NeighbourSD, in the unit cube (Hutter et al. 2011 §4.3, SMAC's and
// ConfigSpace's values).
const (
	NumericNeighbours = 4
	NeighbourSD       = 0.2
)

// maxSteps bounds a local search. Every step strictly raises EI, which
// takes finitely many values on a forest, so a search ends anyway; the
// bound only keeps a pathological forest from costing much.
const maxSteps = 200

// maximise returns the untried configuration of largest EI among the
// local optima of Starts local searches and Candidates uniform random
// configurations, as SMAC compares its local search's results with its
// random configurations (Hutter et al. 2011 §4.3; the spec's 10 and 5,000).
// Ties go to the local optima, then to the earlier random draw. When every
// candidate was tried it returns an untried random configuration.
func (s *SMAC) maximise(ctx context.Context, h *sampler.History, f *forest.Forest, best float64, rng *rand.Rand) []float64 {
	sp := h.Space
	m := &forestModel{f: f, sp: sp}
	ei := acq.EI{Best: best}
	score := func(u []float64) float64 { return ei.Eval(m, u, nil) }
	seen := bo.Seen(h)
	var pick []float64
	top := math.Inf(-1)
	consider := func(u []float64, a float64) {
		if a > top && !seen[sp.Key(u)] {
			pick, top = u, a
		}
	}
	for _, start := range bestConfigurations(h.Observed, bo.OrDefault(s.Starts, 10)) {
		if ctx.Err() != nil {
			break
		}
		consider(localSearch(sp, score, start, rng))
	}
	for range bo.OrDefault(s.Candidates, 5000) {
		u := sp.Sample(rng)
		consider(u, score(u))
	}
	if pick == nil {
		return bo.UntriedPoint(h, rng)
	}
	return pick
}

// bestConfigurations returns the points of the n observations with the
// smallest finite losses, best first (ties in trial order).
func bestConfigurations(obs []sampler.Observation, n int) [][]float64 {
	var finite []sampler.Observation
	for _, o := range obs {
		if !math.IsNaN(o.Y) && !math.IsInf(o.Y, 0) {
			finite = append(finite, o)
		}
	}
	slices.SortStableFunc(finite, func(a, b sampler.Observation) int { return cmp.Compare(a.Y, b.Y) })
	var pts [][]float64
	for _, o := range finite[:min(n, len(finite))] {
		pts = append(pts, o.X)
	}
	return pts
}

// localSearch climbs score from start in the one-exchange neighbourhood
// (neighbours) by first improvement: the neighbours are scored in a random
// order and the first that strictly raises score is taken, as SMAC3's
// LocalSearch does [reference code: automl/SMAC3]; SMAC (2011) does not
// say which. First improvement costs fewer acquisition evaluations per step
// than best improvement, and the random order keeps it from favouring the
// first parameters. The search stops at a local optimum, a point none of
// whose neighbours (a fresh draw for Float parameters) scores higher; SMAC3's
// plateau walk through neighbours of equal score is left out. It returns
// the optimum and its score.
func localSearch(sp *space.Space, score func([]float64) float64, start []float64, rng *rand.Rand) ([]float64, float64) {
	u := slices.Clone(start)
	sp.Round(u)
	a := score(u)
	for range maxSteps {
		nb := neighbours(sp, u, rng)
		rng.Shuffle(len(nb), func(i, j int) { nb[i], nb[j] = nb[j], nb[i] })
		moved := false
		for _, v := range nb {
			if b := score(v); b > a {
				u, a, moved = v, b, true
				break
			}
		}
		if !moved {
			break
		}
	}
	return u, a
}

// neighbours is the one-exchange neighbourhood of u (Hutter et al. 2011
// §4.3): the points that differ from u in one active parameter. Discrete
// parameters move as space.Neighbours moves them (every other choice of a
// categorical, the next level down and up of an Int or Ordinal); each
// active Float gets NumericNeighbours values drawn from a Gaussian around
// its coordinate with standard deviation NeighbourSD, redrawn until they
// fall in [0,1]. Every neighbour is rounded, so a changed parent leaves
// its newly inactive children at the placeholder.
func neighbours(sp *space.Space, u []float64, rng *rand.Rand) [][]float64 {
	nb := sp.Neighbours(u)
	for i, active := range sp.Active(u) {
		if !active || !sp.Continuous(i) {
			continue
		}
		for range NumericNeighbours {
			v := slices.Clone(u)
			v[i] = truncatedNormal(u[i], NeighbourSD, rng)
			nb = append(nb, v)
		}
	}
	for _, v := range nb {
		sp.Round(v)
	}
	return nb
}

// truncatedNormal draws from N(mu, sd²) restricted to [0,1] by rejection
// (for mu in [0,1] and sd = 0.2 at least half the draws are accepted);
// after 100 rejections it clamps.
func truncatedNormal(mu, sd float64, rng *rand.Rand) float64 {
	var x float64
	for range 100 {
		if x = mu + sd*rng.NormFloat64(); x >= 0 && x <= 1 {
			return x
		}
	}
	return min(max(x, 0), 1)
}

// forestModel is the forest as an acq.Model on encoded points.
type forestModel struct {
	f  *forest.Forest
	sp *space.Space
}

// Predict returns the forest's mean and variance at encoded point u.
func (m *forestModel) Predict(u []float64) (mean, varF float64) {
	mu, sd := m.f.Predict(bo.ForestInput(m.sp, u))
	return mu, sd * sd
}

// PredictGrad is never called: acquisitions are evaluated without
// gradients here (a forest is piecewise constant). It returns zero
// derivatives, which is what a forest has almost everywhere.
func (m *forestModel) PredictGrad(u, dmean, dvar []float64) (mean, varF float64) {
	clear(dmean)
	clear(dvar)
	return m.Predict(u)
}
