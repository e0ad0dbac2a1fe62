package cocabo_test

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/space"
)

// GPyOptOneHot is the seeds' One-hot BO as GPyOpt ran it [000 §5.5,
// footnote 3], for the Ackley-5C reproduction only (docs/cocabo.md): an
// isotropic Matérn-5/2 GP on [one-hot(h), x] fitted by maximum likelihood
// with 5 restarts (GPyOpt's GPModel: ARD=False, optimize_restarts=5), UCB
// with κ = 2, and GPyOpt's acquisition optimiser: the best 5 of 1000 random
// valid points as anchors, L-BFGS from each in the relaxed box [0,1]^ΣN × x,
// every one-hot block rounded to its argmax only after the optimisation
// (Space.round_optimum), and the best rounded point proposed. boa's
// onehot-gp instead rounds inside the acquisition (mixed spec §4.4
// Decision) and scores 5000 candidates.
//
// With updateEvery = k > 1 it is GPyOpt's BO loop with
// model_update_interval = k (GPyOpt/core/bo.py, _update_model): the model,
// data and hyper-parameters alike, is updated only every k evaluations
// after the initial design, and the proposals in between come from the
// stale model.
type GPyOptOneHot struct {
	*gpbo.OneHotGP
	updateEvery int
}

func NewGPyOptOneHot(updateEvery int) sampler.Sampler {
	o := gpbo.NewOneHot()
	o.ARD, o.MLE, o.Restarts = false, true, 5
	return GPyOptOneHot{o, updateEvery}
}

func (o GPyOptOneHot) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if len(h.Observed) < o.InitPoints {
		return sp.Sample(rng), nil
	}
	k := max(1, o.updateEvery)
	known := o.InitPoints + (len(h.Observed)-o.InitPoints)/k*k // the data of the last update
	model, err := o.Fit(sp, h.Observed[:known], rng)
	if err != nil {
		return nil, err
	}
	lcb := acq.LCB{Kappa: o.Kappa}
	cost := func(z, grad []float64) float64 { // BoxLBFGS minimises
		v := -lcb.Eval(model, z, grad)
		for i := range grad {
			grad[i] = -grad[i]
		}
		return v
	}
	const samples, anchors = 1000, 5 // GPyOpt's ObjectiveAnchorPointsGenerator
	type scored struct {
		z []float64
		v float64
	}
	pts := make([]scored, samples)
	for i := range pts {
		z := sp.Features(sp.Sample(rng), nil)
		pts[i] = scored{z, cost(z, nil)}
	}
	slices.SortStableFunc(pts, func(a, b scored) int { return cmp.Compare(a.v, b.v) })
	lo, hi := make([]float64, sp.NumFeatures()), make([]float64, sp.NumFeatures())
	for i := range hi {
		hi[i] = 1
	}
	var best []float64
	var bestV float64
	for _, a := range pts[:anchors] {
		u := roundRelaxed(sp, opt.BoxLBFGS(cost, a.z, lo, hi, opt.LBFGSSettings{}).X)
		if v := cost(sp.Features(u, nil), nil); best == nil || v < bestV {
			best, bestV = u, v
		}
	}
	return best, nil
}

// roundRelaxed returns the point of sp at the relaxed features z: each
// one-hot block rounded to its argmax (GPyOpt's round_optimum), the other
// coordinates as they are.
func roundRelaxed(sp *space.Space, z []float64) []float64 {
	u := make([]float64, sp.Len())
	for i, p := range sp.Params() {
		f := sp.FeatureIndex(i)
		if p.Kind != space.Categorical && p.Kind != space.Bool {
			u[i] = z[f]
			continue
		}
		block := z[f : f+sp.Levels(i)]
		k := 0
		for j := range block {
			if block[j] > block[k] {
				k = j
			}
		}
		u[i] = (float64(k) + 0.5) / float64(len(block)) // the centre of level k's cell
	}
	sp.Round(u)
	return u
}
