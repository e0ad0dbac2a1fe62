package gpbo

import (
	"context"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// OneHotGP is the one-hot GP baseline of the CoCaBO and CASMOPOLITAN
// experiments, `onehot-bo` of mixed spec §4.4 [000 §5.5; 002 §5.4]: a GP on
// [one-hot(h), x] (gpbo's model: Matérn-5/2 ARD on space.Features, MAP)
// with UCB κ = 2, whose acquisition is optimised in the relaxed space
// [0,1]^{ΣN} × box with every one-hot block rounded to its argmax inside
// the acquisition (the spec's Decision, the "basic" approach of
// [004 §4.1.1]): Candidates uniform points, then L-BFGS from the best 3
// over the continuous coordinates only, because the rounded acquisition is
// flat along the relaxed one-hot coordinates. The design is InitPoints
// uniform points (spec §4.1: 24 for every method).
//
// This is deliberately the seeds' baseline, not boa's best one-hot search:
// gpbo on the same space also moves the categories by local search, which
// the seeds' GPyOpt baseline did not do (docs/cocabo.md compares both).
type OneHotGP struct{ *GPBO }

// Defaults of the one-hot baseline [mixed spec §4.1, §4.4].
const (
	onehotInit       = 24   // uniform initial points
	onehotCandidates = 5000 // uniform acquisition candidates
	onehotTop        = 3    // L-BFGS starts
)

// NewOneHot returns the onehot-gp baseline: gpbo's model with the
// confidence bound acquisition (AcqLCB), κ = 2, a 24-point uniform design
// and 5000 acquisition candidates.
func NewOneHot() *OneHotGP {
	g := New()
	g.Acquisition, g.Kappa = AcqLCB, 2
	g.InitPoints, g.Candidates = onehotInit, onehotCandidates
	return &OneHotGP{g}
}

// Name returns "onehot-gp".
func (*OneHotGP) Name() string { return "onehot-gp" }

// Designing reports whether fewer than InitPoints trials have completed,
// so that the next suggestion is a point of the initial design.
func (o *OneHotGP) Designing(h *sampler.History) bool {
	return len(h.Observed) < bo.OrDefault(o.InitPoints, onehotInit)
}

// Suggest proposes an untried uniform point (bo.FreshDesignPoint) while fewer
// than InitPoints trials have completed, else the maximiser of the rounded
// acquisition, with pending, failed and pruned trials fantasised at their
// posterior mean (Kriging Believer), weighted by the probability of
// feasibility and computability as gpbo's (GPBO.Factors).
func (o *OneHotGP) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if o.Designing(h) {
		return bo.UntriedPoint(h, rng), nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	model, err := o.Fit(sp, h.Observed, rng)
	if err != nil {
		o.Log().Warn("onehot-gp: surrogate fit failed; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	model, _ = bo.Believe(sp, model, h.WithoutValue()) // LCB has no incumbent
	_, feasible := bo.BestFeasible(h.Observed)
	af := constrain(acq.LCB{Kappa: o.Kappa}, model, o.Factors(h, rng), feasible)
	objective, free := bo.AcqObjective(sp, model, af)
	dom := opt.Domain{
		Dim: sp.Len(), Free: free, Round: sp.Round, // no Neighbours: categories never move after sampling
		Candidates: func(n int, rng *rand.Rand) [][]float64 {
			pts := make([][]float64, n)
			for i := range pts {
				pts[i] = sp.Sample(rng) // a uniform relaxed one-hot block's argmax is a uniform category
			}
			return pts
		},
		Exclude: bo.Excluded(h),
	}
	res, err := opt.Maximize(objective, dom, opt.MaximizeSettings{
		Candidates: bo.OrDefault(o.Candidates, onehotCandidates),
		Top:        onehotTop,
		Batch:      bo.AcqBatch(model, af, sp.Features),
	}, rng)
	if err != nil {
		o.Log().Warn("onehot-gp: acquisition optimisation found no new point; proposing an untried random point", "trial", h.Trials, "err", err)
		return bo.UntriedPoint(h, rng), nil
	}
	return res.X, nil
}
