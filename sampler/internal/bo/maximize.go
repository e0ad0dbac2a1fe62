package bo

import (
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/opt"
	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// MaximizeAcquisition maximises af on model over the encoded space, from
// candidates raw points (0: opt's default) and the incumbent, never
// returning a configuration h has tried or one h does not admit
// (Excluded). Continuous and numeric discrete coordinates are refined by
// gradient steps (the latter relaxed, then rounded); categoricals move by
// local search; small discrete spaces are enumerated exactly.
func MaximizeAcquisition(sp *space.Space, model acq.BatchModel, af acq.Function, h *sampler.History, candidates int, rng *rand.Rand) ([]float64, error) {
	return MaximizeWithin(sp, acq.Bind(af, model), h, candidates, nil, nil, rng)
}

// MaximizeSurface is MaximizeAcquisition for an acquisition bound to its
// models already: one averaged over hyper-parameter samples (acq.Average)
// or FITBO's (spec gp-and-acquisitions §3.3, §4.6).
func MaximizeSurface(sp *space.Space, s acq.Surface, h *sampler.History, candidates int, rng *rand.Rand) ([]float64, error) {
	return MaximizeWithin(sp, s, h, candidates, nil, nil, rng)
}

// MaximizeWithin is MaximizeSurface within the box [lo, hi] of the unit
// space, a trust region (nil: all of it; opt.Domain.Lo).
func MaximizeWithin(sp *space.Space, s acq.Surface, h *sampler.History, candidates int, lo, hi []float64, rng *rand.Rand) ([]float64, error) {
	var starts [][]float64
	if x := incumbent(h); x != nil {
		starts = [][]float64{x}
	}
	return MaximizeFrom(sp, s, h, candidates, lo, hi, starts, rng)
}

// MaximizeFrom is MaximizeWithin with starts, points scored among the
// raw candidates, in place of the incumbent: a multi-objective sampler
// has no one incumbent, but a front.
func MaximizeFrom(sp *space.Space, s acq.Surface, h *sampler.History, candidates int, lo, hi []float64, starts [][]float64, rng *rand.Rand) ([]float64, error) {
	objective, free := SurfaceObjective(sp, s)
	continuous := hasFloat(sp)
	// Never propose a configuration that is already evaluated or running:
	// near a converged optimum the incumbent itself can win the search.
	// Nor one that breaks a limit known before evaluation (History.Admits).
	dom := opt.Domain{
		Dim: sp.Len(), Free: free, Round: sp.Round, Neighbours: sp.Neighbours,
		Lo: lo, Hi: hi, Exclude: Excluded(h),
	}
	if !continuous {
		// A small discrete space is enumerated exactly (issue 2, item 4).
		if pts, ok := sp.Enumerate(enumerateLimit); ok {
			dom.Candidates = func(int, *rand.Rand) [][]float64 { return pts }
		}
	} else if combos, ok := sp.Enumerate(comboLimit); ok && len(combos) > 1 {
		dom.Candidates = cycleCombos(sp, combos)
	}
	res, err := opt.Maximize(objective, dom, opt.MaximizeSettings{
		Candidates: candidates,
		Starts:     starts,
		Batch:      SurfaceBatch(s, sp.Features),
	}, rng)
	if err != nil {
		return nil, err
	}
	return res.X, nil
}

// AcqObjective returns the acquisition af of model as a function of the
// encoded point u, with its gradient over the coordinates that gradient
// steps may move (free: Float, Int and Ordinal; Int and Ordinal are
// relaxed and rounded); categorical and inactive coordinates get 0.
func AcqObjective(sp *space.Space, model acq.Model, af acq.Function) (f func(u, grad []float64) float64, free []bool) {
	return SurfaceObjective(sp, modelSurface{af, model})
}

// modelSurface evaluates an acquisition on a model point by point; it is
// a Surface only for SurfaceObjective, which never asks for a batch.
type modelSurface struct {
	af    acq.Function
	model acq.Model
}

func (m modelSurface) Eval(x, grad []float64) float64 { return m.af.Eval(m.model, x, grad) }
func (m modelSurface) EvalBatch([][]float64, []float64) {
	panic("bo: modelSurface evaluates point by point")
}

// SurfaceObjective is AcqObjective for an acquisition surface.
func SurfaceObjective(sp *space.Space, s acq.Surface) (f func(u, grad []float64) float64, free []bool) {
	fb := make([]float64, sp.NumFeatures())
	fg := make([]float64, sp.NumFeatures())
	free = make([]bool, sp.Len())
	for i, p := range sp.Params() {
		free[i] = p.Kind == space.Float || p.Kind == space.Int || p.Kind == space.Ordinal
	}
	return func(u, grad []float64) float64 {
		f := sp.Features(u, fb)
		if grad == nil {
			return s.Eval(f, nil)
		}
		v := s.Eval(f, fg)
		active := sp.Active(u)
		for i := range grad {
			grad[i] = 0
			if free[i] && active[i] {
				grad[i] = fg[sp.FeatureIndex(i)]
			}
		}
		return v
	}, free
}

// AcqBatch is the opt.MaximizeSettings.Batch of an acquisition objective:
// it maps each encoded point to the model's inputs with features and
// scores them all with acq.EvalBatch, which gives the objective's values
// bit for bit in a fraction of the time (docs/performance.md).
func AcqBatch(model acq.BatchModel, af acq.Function, features func(u, dst []float64) []float64) func(U [][]float64, values []float64) {
	return SurfaceBatch(acq.Bind(af, model), features)
}

// SurfaceBatch is AcqBatch for an acquisition surface.
func SurfaceBatch(s acq.Surface, features func(u, dst []float64) []float64) func(U [][]float64, values []float64) {
	return func(U [][]float64, values []float64) {
		F := make([][]float64, len(U))
		for i, u := range U {
			F[i] = features(u, nil)
		}
		s.EvalBatch(F, values)
	}
}

// incumbent is the point of the best completed trial (the first of equal
// ones), nil with none. The acquisition's refinement starts there too,
// since near a narrow optimum the raw candidates rarely land close enough
// to it (without it, playbook-h's median regret on Ackley-5 with 4
// workers was 3.01 instead of 2.48; docs/playbook.md).
func incumbent(h *sampler.History) []float64 {
	if i := BestIndex(h.Observed); i >= 0 {
		return h.Observed[i].X
	}
	return nil
}

// BestValue is the smallest Y of obs, +Inf with none.
func BestValue(obs []sampler.Observation) float64 {
	if i := BestIndex(obs); i >= 0 {
		return obs[i].Y
	}
	return math.Inf(1)
}

// FullFit reports whether a hyper-parameter fit on n observations runs
// all its starts (spec §3.2). Deviation for speed (docs/gp-defaults.md):
// beyond largeHistory observations every LML gradient costs an O(n³)
// inverse, so a fit restarts only when n is a multiple of RefitStep(n);
// the others reuse or polish the previous optimum, which a few new
// observations among hundreds barely move.
func FullFit(n int) bool { return n <= largeHistory || n%RefitStep(n) == 0 }

// RefitStep is how many observations apart full fits are at n: 1 up to
// largeHistory, then 10, doubling with every doubling of n (20 from 400,
// 40 from 800, 80 from 1,600), so the data grow by 2.5–5 % between full
// fits and their O(n³) cost, spread over the suggestions in between,
// stays a few factorisations of the kernel matrix as n grows (issue 41).
// Any RefitStep(n) consecutive observation counts hold exactly one full
// fit, which is how the suggestion benchmarks count them.
func RefitStep(n int) int {
	if n <= largeHistory {
		return 1
	}
	step := fullRefitEvery
	for m := 2 * largeHistory; m <= n; m *= 2 {
		step *= 2
	}
	return step
}

// cycleCombos returns Sobol candidates whose discrete coordinates run
// through every discrete setting in turn, so each setting is scored.
func cycleCombos(sp *space.Space, combos [][]float64) func(int, *rand.Rand) [][]float64 {
	return func(n int, rng *rand.Rand) [][]float64 {
		pts := qmc.SobolPoints(n, sp.Len(), rng)
		for j, u := range pts {
			c := combos[j%len(combos)]
			for i := range u {
				if !sp.Continuous(i) {
					u[i] = c[i]
				}
			}
			sp.Round(u)
		}
		return pts
	}
}

// BestIndex returns the index of the smallest finite Y, or −1.
func BestIndex(obs []sampler.Observation) int {
	best, idx := math.Inf(1), -1
	for i, o := range obs {
		if o.Y < best {
			best, idx = o.Y, i
		}
	}
	return idx
}

// OrDefault is v when it is set (above 0), else the default d.
func OrDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

const (
	largeHistory   = 200  // observations beyond which most fits only polish the warm start
	fullRefitEvery = 10   // ... and full multi-start fits run this many apart, up to twice that (RefitStep)
	enumerateLimit = 4096 // discrete spaces up to this size are searched exhaustively
	comboLimit     = 64   // mixed spaces with up to this many discrete settings get every setting among the candidates
)

// Recommend minimises the posterior mean that mean gives as its
// acquisition (α = −μ: acq.LCB with κ = 0, or an average of them over
// hyper-parameter samples) over the whole encoded space, tried
// configurations included: the recommendation x̂ = argmin μ(x) of
// [000 §3.3.3] (spec gp-and-acquisitions §6.3, §7), from 1000 Sobol
// candidates and the best observed point. It returns x̂ and μ(x̂).
func Recommend(sp *space.Space, mean acq.Surface, h *sampler.History, rng *rand.Rand) ([]float64, float64, error) {
	objective, free := SurfaceObjective(sp, mean)
	dom := opt.Domain{
		Dim: sp.Len(), Free: free, Round: sp.Round, Neighbours: sp.Neighbours,
		Exclude: func(u []float64) bool { return !h.Admits(u) },
	}
	if combos, ok := sp.Enumerate(enumerateLimit); ok && sp.Len() > 0 && !hasFloat(sp) {
		dom.Candidates = func(int, *rand.Rand) [][]float64 { return combos }
	}
	var starts [][]float64
	if x := incumbent(h); x != nil {
		starts = [][]float64{x}
	}
	res, err := opt.Maximize(objective, dom, opt.MaximizeSettings{
		Candidates: recommendCandidates, Top: recommendStarts, Starts: starts,
		Batch: SurfaceBatch(mean, sp.Features),
	}, rng)
	if err != nil {
		return nil, 0, err
	}
	return res.X, -res.F, nil
}

// hasFloat reports whether sp has a float parameter, which gradient
// steps refine; a space without one is enumerated when it is small.
func hasFloat(sp *space.Space) bool {
	for _, p := range sp.Params() {
		if p.Kind == space.Float {
			return true
		}
	}
	return false
}

const (
	recommendCandidates = 1000 // Sobol sweep of the mean's minimisation (spec §6.3)
	recommendStarts     = 10   // multistart refinements (spec §6.3)
)
