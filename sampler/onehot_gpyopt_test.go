package sampler

import (
	"context"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/space"
)

// gpyoptOneHot is the seeds' One-hot BO as GPyOpt ran it [000 §5.5,
// footnote 3], for the Ackley-5C reproduction only (docs/cocabo.md): an
// isotropic Matérn-5/2 GP on [one-hot(h), x] fitted by maximum likelihood
// with 5 restarts (GPyOpt's GPModel: ARD=False, optimize_restarts=5), UCB
// with κ = 2, and GPyOpt's acquisition optimiser: the best 5 of 1000 random
// valid points as anchors, L-BFGS from each in the relaxed box [0,1]^ΣN × x,
// every one-hot block rounded to its argmax only after the optimisation
// (Space.round_optimum), and the best rounded point proposed. boa's
// onehot-gp instead rounds inside the acquisition (mixed spec §4.4
// Decision) and scores 5000 candidates.
type gpyoptOneHot struct{ *OneHotGP }

func newGPyOptOneHot() Sampler {
	o := NewOneHotGP()
	o.ARD, o.MLE, o.Restarts = false, true, 5
	return gpyoptOneHot{o}
}

func (o gpyoptOneHot) Suggest(ctx context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	sp := h.Space
	if len(h.Observed) < onehotInit {
		return sp.Sample(rng), nil
	}
	model, err := o.fit(sp, h.Observed, rng)
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
	var best scored
	lo, hi := make([]float64, sp.NumFeatures()), make([]float64, sp.NumFeatures())
	for i := range hi {
		hi[i] = 1
	}
	for a := range anchors {
		// Partial selection of the a-th best anchor.
		m := a
		for j := a + 1; j < len(pts); j++ {
			if pts[j].v < pts[m].v {
				m = j
			}
		}
		pts[a], pts[m] = pts[m], pts[a]
		res := opt.BoxLBFGS(cost, pts[a].z, lo, hi, opt.LBFGSSettings{})
		z := roundOneHot(sp, res.X)
		if v := cost(z, nil); best.z == nil || v < best.v {
			best = scored{z, v}
		}
	}
	u := make([]float64, sp.Len())
	for i, p := range sp.Params() {
		f := sp.FeatureIndex(i)
		if p.Kind == space.Categorical || p.Kind == space.Bool {
			for k := range sp.Levels(i) {
				if best.z[f+k] == 1 {
					u[i] = (float64(k) + 0.5) / float64(sp.Levels(i))
				}
			}
		} else {
			u[i] = best.z[f]
		}
	}
	sp.Round(u)
	return u, nil
}

// roundOneHot returns z with every one-hot block set to its argmax.
func roundOneHot(sp *space.Space, z []float64) []float64 {
	r := append([]float64(nil), z...)
	for i, p := range sp.Params() {
		if p.Kind != space.Categorical && p.Kind != space.Bool {
			continue
		}
		block := r[sp.FeatureIndex(i) : sp.FeatureIndex(i)+sp.Levels(i)]
		m := 0
		for k := range block {
			if block[k] > block[m] {
				m = k
			}
		}
		clear(block)
		block[m] = 1
	}
	return r
}
