package cocabo

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/transform"
)

// Matérn-5/2 settings of the CoCaBO code for inputs in [−1, 1]: lengthscale
// 0.2 in [1e-4, 3], inner variance fixed at 1 [mixed spec §3.3, §4.1].
var (
	cocaboLenInit  = 0.2
	cocaboLenBound = kernel.Bound{Lo: 1e-4, Hi: 3}
	unitBound      = kernel.Bound{Lo: 1, Hi: 1}
)

// kernel returns CoCaBO's covariance on the layout's GP inputs: the mixture
// of the overlap kernel on the categorical columns (σ = 1) and a Matérn-5/2
// on the continuous columns (variance 1), with the outer variance fixed at
// 1, as in the reference code (mixed spec §4.1; y is standardised). With
// no continuous column it is the overlap kernel alone.
func (c *CoCaBO) kernel(l *mixedLayout) kernel.Kernel {
	kh := kernel.NewOverlap(l.cat)
	if len(l.cont) == 0 {
		return kh
	}
	m := kernel.NewStationary(kernel.Matern52, len(l.cont), c.ARD)
	m.SetBounds(cocaboLenBound, unitBound)
	ls := make([]float64, len(m.Lengthscales()))
	for i := range ls {
		ls[i] = cocaboLenInit
	}
	m.SetLengthscales(ls)
	mix := kernel.NewMixture(kh, kernel.NewSubset(m, l.cont), c.Lambda, c.LearnLambda)
	mix.SetFixedVariance(1)
	mix.SetSumHalf(c.SumHalf)
	return mix
}

// model returns the GP on obs. Hyper-parameters are fitted (MLE,
// Restarts starts, warm-started from the cache) when the iteration count
// t = (len(obs) − InitPoints)/step is a multiple of RefitEvery or when
// there is no usable cache; otherwise the cached values are reused
// [000 §5.5; mixed spec §4.1], as they are when they were fitted to the
// same data (bo.WarmStart.Reuse). step is 1 for Suggest and b for
// SuggestBatch, so that RefitEvery counts batches as the reference code
// does.
func (c *CoCaBO) model(l *mixedLayout, obs []sampler.Observation, step int, rng *rand.Rand) (*gp.GP, error) {
	X := make([][]float64, len(obs))
	y := make([]float64, len(obs))
	for i, o := range obs {
		X[i] = l.features(o.X, nil)
		y[i] = o.Y
	}
	if c.Copula {
		y = transform.GaussianCopula(y)
	}
	k := c.kernel(l)
	key := fmt.Sprintf("%v|%v|%d|%g|%t|%t|%t|%t", l.cat, l.levels, len(l.cont), c.Lambda, c.LearnLambda, c.ARD, c.SumHalf, c.Copula)
	t := max(0, len(obs)-c.initPoints()) / max(1, step)
	m, data := c.warm.Reuse(key, k, gp.MeanZero, X, y, t%c.refitEvery() != 0)
	if m != nil {
		return m, nil
	}
	restarts := c.Restarts
	if restarts <= 0 {
		restarts = cocaboRestarts
	}
	m, err := gp.Fit(X, y, gp.Config{Kernel: k, Restarts: restarts, Rand: rng, Warm: c.warm.Get(key, k.NumParams()+1)})
	if err != nil {
		return nil, err
	}
	c.warm.Set(key, m.Params(), data)
	return m, nil
}

// believeMixed is Kriging Believer on CoCaBO's inputs [000 App. B.1,
// Alg. 17]: every point is added at its posterior mean, at once, as gpbo's
// Believe does (which says why that equals adding them one after
// another); points the model cannot take (a duplicate with too little
// noise) are skipped.
func believeMixed(l *mixedLayout, m *gp.GP, pts [][]float64) *gp.GP {
	F := make([][]float64, len(pts))
	for i, p := range pts {
		F[i] = l.features(p, nil)
	}
	m, _ = bo.BelieveAll(m, F)
	return m
}

// argmax maximises UCB over the continuous coordinates with the categories
// fixed at arms [000 Alg. 5, line 5]: uniform raw candidates with h set,
// L-BFGS refinement of the top ones (Int and Ordinal relaxed and rounded,
// and moved by ±1 local search), never returning a configuration in seen.
// The best observed point, with its categories replaced by arms, is one
// more start. With no continuous coordinate the only point is h itself.
//
// factors, the classifier of computability when the history has failed
// trials (bo.Feasibility; a boa extension, not part of CoCaBO), weight UCB
// by the probability that x computes: log Softplus(UCB) + log P on the
// GP's standardised scale, as gpbo weights its confidence bound.
func (c *CoCaBO) argmax(l *mixedLayout, model *gp.GP, arms []int, obs []sampler.Observation, seen map[string]bool, factors []acq.Penalty, top int, rng *rand.Rand) ([]float64, error) {
	sp := l.sp
	fix := func(u []float64) {
		l.setArms(u, arms)
		sp.Round(u)
	}
	if len(l.cont) == 0 {
		u := make([]float64, sp.Len())
		fix(u)
		if seen[sp.Key(u)] {
			return nil, fmt.Errorf("cocabo: categories %v were already evaluated and there is no continuous parameter to vary", arms)
		}
		return u, nil
	}
	af := acq.LCB{Kappa: c.kappa()}
	z := make([]float64, sp.Len())
	gz := make([]float64, sp.Len())
	objective := func(u, grad []float64) float64 {
		l.features(u, z)
		if grad == nil {
			return af.Eval(model, z, nil)
		}
		v := af.Eval(model, z, gz)
		for i := range grad {
			grad[i] = 0
			if l.free[i] {
				grad[i] = 2 * gz[i] // z = 2u − 1
			}
		}
		return v
	}
	dom := opt.Domain{
		Dim:   sp.Len(),
		Free:  l.free,
		Round: fix,
		Neighbours: func(u []float64) [][]float64 {
			// Only moves of Int and Ordinal coordinates: h stays fixed.
			return slices.DeleteFunc(sp.Neighbours(u), func(v []float64) bool {
				for _, i := range l.cat {
					if v[i] != u[i] {
						return true
					}
				}
				return false
			})
		},
		Candidates: func(n int, rng *rand.Rand) [][]float64 {
			pts := make([][]float64, n)
			for j := range pts {
				pts[j] = make([]float64, sp.Len())
				for i := range pts[j] {
					pts[j][i] = rng.Float64()
				}
				fix(pts[j])
			}
			return pts
		},
		Exclude: func(u []float64) bool { return seen[sp.Key(u)] },
	}
	batch := bo.AcqBatch(model, af, l.features)
	if len(factors) > 0 {
		offset, scale := model.Standardization()
		pos := acq.Standardised{Positivity: acq.Softplus{}, Offset: offset, Scale: scale}
		objective, batch = bo.Weighted(sp, factors, pos, l.free, objective, batch)
	}
	var starts [][]float64
	if i := bo.BestIndex(obs); i >= 0 {
		s := slices.Clone(obs[i].X)
		fix(s)
		starts = append(starts, s)
	}
	res, err := opt.Maximize(objective, dom, opt.MaximizeSettings{
		Candidates: bo.OrDefault(c.Candidates, cocaboCandidates),
		Top:        top,
		Starts:     starts,
		Batch:      batch,
	}, rng)
	if err != nil {
		return nil, err
	}
	return res.X, nil
}
