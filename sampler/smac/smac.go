package smac

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// SMAC is the SMAC-like baseline of spec §6 (Hutter et al. 2011). After an
// initial design, every suggestion is either a uniformly random untried
// configuration (every RandomEvery-th trial, by default every second: the
// spec's interleaving probability 0.5) or the maximiser of expected
// improvement on a random forest (spec §4.2, Forest's zero value: S = 10
// trees, all features per split, bootstrap) fitted to the observed losses.
// EI is maximised by local search in the one-exchange neighbourhood from
// the Starts best observed configurations, together with Candidates random
// configurations (the spec's 10 and 5,000; search.go).
//
// Where the spec is silent or leaves a choice:
//
//   - Initial design: InitPoints = 10 points of a maximin Latin hypercube
//     (space.DesignLHS) drawn from the study's seed, one column per
//     parameter. SMAC (2011) starts from the user's default configuration,
//     which boa's spaces do not have; 10 LHS points are SVM-CBO's design
//     (spec §3.4 n_init 10, §3.5), and tpe's start-up is 10 trials too, so
//     the baselines start alike. A design point whose configuration was
//     tried is replaced by an untried random one (bo.FreshDesignPoint). The
//     design lasts while fewer than 10 trials have a value, counting
//     pending ones as gpbo's family does (bo.InDesign); failed and pruned
//     design trials make way for more design points.
//   - Interleaving: deterministic from the trial number, not drawn. Trial t
//     after the design is random when t mod RandomEvery = RandomEvery − 1,
//     so Designing can tell without an rng (the study records the Origin
//     before Suggest) and a resumed study continues exactly.
//   - What the forest sees: the unit-cube encoding (Space.Round's codes),
//     not Space.Features: a categorical is one coordinate, its choice's
//     code (k+½)/L, which a tree splits into any two groups of choices in a
//     few cuts, instead of L one-hot columns; an inactive conditional
//     parameter is NaN, the forest's inactive sentinel (package forest,
//     "Inactive conditional variables"), so its placeholder 0.5 is never
//     mistaken for a value.
//   - Failed trials (History.Failed, and an observation whose value is not
//     finite) get the spec's penalty (its Decision): worst observed loss +
//     10 % of the observed range; with one distinct observed loss the range
//     is 0 and the penalty is that loss. FeasibleOnly leaves them out of the
//     model instead. Either way they are never proposed again (bo.Seen).
//   - Pending and pruned trials are left out of the model and never
//     proposed again (bo.Seen). A pruned trial has no final value. A pending
//     one is not fantasised (gpbo's Kriging Believer), as SMAC does not model
//     running configurations either: the interleaving sends every second
//     worker to a random point, and the forest's bootstrap, drawn from each
//     trial's own rng, makes successive model suggestions differ.
//   - EI is on the raw losses with the best observed loss as incumbent
//     (acq.EI, ξ = 0), as SMAC's HPO settings use it (no log transform: the
//     losses here are not runtimes).
//
// Every random choice comes from the rng Suggest is given, or, for the
// design, from the study's seed, and nothing is kept between calls: the
// same history and rng give the same suggestion.
type SMAC struct {
	InitPoints   int             // initial design size; default 10
	Candidates   int             // random configurations scored per suggestion; default 5000 (spec §6)
	Starts       int             // local searches, one from each of the best observed configurations; default 10 (spec §6)
	RandomEvery  int             // after the design every RandomEvery-th trial is uniformly random; default 2 (spec §6: probability 0.5); negative: none
	FeasibleOnly bool            // leave failed trials out of the model (spec §6 option feasible_only) instead of giving them the penalty
	Forest       forest.Settings // the zero value is spec §4.2's Decision
}

// New returns smac-like with the defaults of spec §6.
func New() *SMAC { return &SMAC{InitPoints: 10, Candidates: 5000, Starts: 10, RandomEvery: 2} }

func (s *SMAC) Name() string { return "smac-like" }

// Designing reports whether the suggestion for h is a model-free one: a
// point of the initial design or an interleaved random configuration.
func (s *SMAC) Designing(h *sampler.History) bool { return s.inDesign(h) || s.interleaved(h) }

func (s *SMAC) inDesign(h *sampler.History) bool {
	return bo.InDesign(len(h.Observed), len(h.Pending), bo.OrDefault(s.InitPoints, 10))
}

// interleaved reports whether trial h.Trials, past the design, is one of
// the uniformly random ones.
func (s *SMAC) interleaved(h *sampler.History) bool {
	if s.RandomEvery < 0 {
		return false
	}
	k := bo.OrDefault(s.RandomEvery, 2)
	return h.Trials%k == k-1
}

// designSalt separates the design's random stream from the other streams
// drawn from the study's seed.
const designSalt = 0x5ac11

// Suggest returns a design point, an interleaved random configuration or
// the untried configuration of largest EI under the forest.
func (s *SMAC) Suggest(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	switch {
	case s.inDesign(h):
		n := bo.OrDefault(s.InitPoints, 10)
		if h.Trials >= n { // design trials failed or were pruned: make up for them
			return bo.UntriedPoint(h, rng), nil
		}
		pts := h.Space.Design(space.DesignLHS, n, rand.New(rand.NewPCG(h.Seed, designSalt)))
		return bo.FreshDesignPoint(h, pts[h.Trials], rng), nil
	case s.interleaved(h):
		return bo.UntriedPoint(h, rng), nil
	}
	X, y, best := s.trainingSet(h)
	if len(y) == 0 { // nothing has a value yet: no model
		return bo.UntriedPoint(h, rng), nil
	}
	f, err := forest.Fit(X, y, s.Forest, rng)
	if err != nil {
		return nil, err
	}
	return s.maximise(ctx, h, f, best, rng), nil
}

// trainingSet returns the forest's inputs (encodings, NaN where inactive),
// its targets and the best observed loss. Failed trials get bo.Penalty's value
// unless FeasibleOnly; with no finite observation there is nothing to
// penalise from, and the set is empty.
func (s *SMAC) trainingSet(h *sampler.History) (X [][]float64, y []float64, best float64) {
	sp := h.Space
	failed := slices.Clone(h.Failed)
	var losses []float64
	for _, o := range h.Observed {
		if math.IsNaN(o.Y) || math.IsInf(o.Y, 0) {
			failed = append(failed, o.X)
			continue
		}
		X = append(X, bo.ForestInput(sp, o.X))
		y = append(y, o.Y)
		losses = append(losses, o.Y)
	}
	if len(y) == 0 {
		return nil, nil, math.Inf(1)
	}
	if !s.FeasibleOnly {
		p := bo.Penalty(losses)
		for _, u := range failed {
			X = append(X, bo.ForestInput(sp, u))
			y = append(y, p)
		}
	}
	return X, y, slices.Min(losses)
}

func init() { sampler.Register("smac-like", func() sampler.Sampler { return New() }) }
