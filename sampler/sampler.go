package sampler

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"

	"github.com/boaopt/boa/space"
)

// Observation is one completed trial as the sampler sees it: the encoded
// point in the unit cube, its value in the internal, minimised sense, the
// batch it was proposed in (storage.Trial.Batch: shared by the trials
// proposed together, 0 when not recorded) and how its point was chosen.
//
// In a study with constraints (History.Constraints) an observation is a
// computable trial: it has a value, and Slack says how far each
// constrained metric was outside its limit (≤ 0 where the limit holds,
// NaN when the trial did not report it). Infeasible is set when a limit
// does not hold; its value may still teach a model about the objective
// [spec constrained-autotinyml §1, §3.3 d]. Trials that were not
// computable (crashed, NaN) are History.Failed.
type Observation struct {
	X []float64
	Y float64
	// Ys are the values of every objective of a multi-objective study
	// (History.Objectives > 1), each in the minimised sense, Y = Ys[0];
	// nil in a single-objective study.
	Ys         []float64
	Batch      int
	Origin     Origin
	Slack      []float64 // one per History.Constraints; nil in an unconstrained study
	Infeasible bool
}

// Origin says how a trial's point was chosen. The study records it with
// the trial (storage.Trial.Origin) so that the replays of CoCaBO and
// CASMOPOLITAN know their design from their model's choices whatever
// order the trials complete in: with asynchronous workers a design point
// may complete after model points, and with many workers the design rule
// (bo.InDesign) proposes more than the design's n points, which a replay
// counting the first n completed trials took for bandit plays and
// trust-region steps.
type Origin string

const (
	OriginUnrecorded Origin = ""       // a sampler that does not say (not a Designer: a peer), or a trial stored by an older boa
	OriginDesign     Origin = "design" // a point of the sampler's model-free design (Designer.Designing)
	OriginModel      Origin = "model"  // chosen by the sampler's model
	OriginUser       Origin = "user"   // enqueued by the user (study.Enqueue)
)

// History is everything a sampler may use to make a suggestion.
type History struct {
	Space    *space.Space
	Observed []Observation // completed trials; failed ones are left out
	Pending  [][]float64   // encoded points of trials that are waiting or running
	Failed   [][]float64   // encoded points of failed trials
	Pruned   [][]float64   // encoded points of pruned trials (stopped early: no final value)
	Trials   int           // number of trials created so far, of any state: the index of the one being suggested
	Seed     uint64        // the study's seed, for designs that must be the same on every call
	Budget   int           // the study's trial budget, trials wanted in all; 0 when it has none
	// Objectives is the number of objectives, the length of every
	// Observation.Ys; 0 or 1 in a single-objective study.
	Objectives int
	// Fidelity is the study's fidelity, the range of the steps its trials
	// report (Partial) when it declares one; nil otherwise.
	Fidelity *Fidelity
	// Constraints names the study's constrained metrics, in the order of
	// Observation.Slack (constraint.Set.Names); empty when it has none.
	Constraints []string
	// Partial holds the intermediate values of the completed and pruned
	// trials (study.Trial.Report: a validation score after each epoch),
	// for a MultiFidelity sampler; nil for the others, whose studies do
	// not load them. They are in the minimised sense, as Observed, but not
	// transformed (Spec.Transform): copula and power are fitted to the
	// final values, log refuses the values ≤ 0 a curve may pass through,
	// and every transform is monotone, so a model that ranks the values
	// of one budget, as BOHB's does, sees the same order either way.
	Partial []Partial
	// Admissible reports whether the encoded, rounded point u meets the
	// limits that are known before evaluation: metrics computed from the
	// configuration alone, such as a latency table or the RAM of an
	// untrained network (the decoupled constraints of spec
	// constrained-autotinyml §7.4, 004 §9). nil when none are known.
	// Samplers propose admissible points only (Admits); SuggestBatch
	// screens what they return.
	Admissible func(u []float64) bool
}

// Fidelity is what a study's trials may be judged on before their end
// (issue 43): a name (epochs), which the command gets as {epochs}, and the
// range of the steps the trials report, Min to Max. Every trial is run to
// Max unless the study's pruner stops it, as Syne Tune's schedulers stop
// the trials they are given the maximum of (max_resource_attr).
type Fidelity struct {
	Name string `json:"name"`
	Min  int64  `json:"min"`
	Max  int64  `json:"max"`
}

// Partial is one intermediate value of a trial: Y after Step (an epoch, a
// budget of Hyperband).
type Partial struct {
	X    []float64
	Step int64
	Y    float64
}

// MultiFidelity is a Sampler whose model uses the intermediate values
// (History.Partial), as BOHB's models each budget. Loading every trial's
// reports costs a study time it spends only for such a sampler.
type MultiFidelity interface {
	Sampler
	UsesPartial()
}

// MultiObjective is a Sampler that models every objective of a
// multi-objective study (Observation.Ys): a study with two or more
// objectives refuses a sampler that is not one, which would optimise the
// first objective alone (issue 43).
type MultiObjective interface {
	Sampler
	MultiObjective()
}

// Admits reports whether u meets the limits known before evaluation: true
// when there are none.
func (h *History) Admits(u []float64) bool { return h.Admissible == nil || h.Admissible(u) }

// Feasible returns the observations that are feasible: all of them in an
// unconstrained study.
func (h *History) Feasible() []Observation {
	out := make([]Observation, 0, len(h.Observed))
	for _, o := range h.Observed {
		if !o.Infeasible {
			out = append(out, o)
		}
	}
	return out
}

// WithoutValue returns the points of the trials that have no value for the
// model: the pending ones, whose values are not in yet, the failed ones,
// whose values never will be, and the pruned ones, whose last intermediate
// value is not the final value the model is fitted to. The model-based
// samplers never propose them again and fantasise them at their posterior
// mean (Kriging Believer). For a failed point that lowers the model's
// uncertainty around it, so the next proposals move away rather than to
// its neighbours, which would likely fail too; Ax treats failed arms as
// pending the same way. Without this, casmopolitan proposed the same
// failed point on every call and gpbo kept to a failing region, and in a
// small categorical study with every other trial pruned a quarter to a
// half of the model's suggestions re-ran a pruned configuration
// (docs/samplers.md, "Failed trials", "Pruned trials").
func (h *History) WithoutValue() [][]float64 { return slices.Concat(h.Pending, h.Failed, h.Pruned) }

// Designer is a Sampler that says which of its suggestions are model-free
// design points (every sampler of this package: random and sobol make
// nothing else, the others open with a design), so that the study can
// record each trial's Origin.
type Designer interface {
	Sampler
	// Designing reports whether the suggestion for h is a design point.
	Designing(h *History) bool
}

// origin is the Origin of the suggestion s makes for h.
func origin(s Sampler, h *History) Origin {
	d, ok := s.(Designer)
	switch {
	case !ok:
		return OriginUnrecorded
	case d.Designing(h):
		return OriginDesign
	}
	return OriginModel
}

// Sampler proposes the next point to evaluate, encoded in the unit cube of
// h.Space. rng is a source derived from the study seed and the trial number,
// so the same study with the same seed makes the same suggestions.
type Sampler interface {
	Name() string
	Suggest(ctx context.Context, h *History, rng *rand.Rand) ([]float64, error)
}

// SpaceChecker is a Sampler that works on some spaces only. A study asks it
// when it is created, so that a pairing that could never suggest anything
// is refused then, not at the first ask (CoCaBO and CASMOPOLITAN need an
// unconditional space).
type SpaceChecker interface {
	Sampler
	CheckSpace(sp *space.Space) error
}

// Check returns an error if no sampler is registered under name, or if
// that sampler cannot work on sp (not checked when sp is nil).
func Check(name string, sp *space.Space) error { return CheckWith(name, nil, sp) }

// Recommender is a Sampler whose model can name the configuration it
// believes best, which on a noisy objective may not be the best observed
// one: x̂ = argmin μ(x), the recommendation of [000 §3.3.3] (spec
// gp-and-acquisitions §7, argmin_mean). predicted is μ(x̂), in the
// minimised sense of h's values.
type Recommender interface {
	Sampler
	Recommend(ctx context.Context, h *History, rng *rand.Rand) (u []float64, predicted float64, err error)
}

// BatchSampler is a Sampler that can also propose n points to be
// evaluated together (a synchronous batch). The points are distinct from
// each other and from the evaluated and pending points of h.
type BatchSampler interface {
	Sampler
	SuggestBatch(ctx context.Context, h *History, n int, rng *rand.Rand) ([][]float64, error)
}

// Chooser is a Sampler that hands every suggestion to another sampler it
// chooses for the study (auto chooses by the space and the budget), so
// that SuggestBatch can ask the chosen one for a joint batch.
type Chooser interface {
	Sampler
	// Chosen returns the sampler that makes the suggestions for h.
	Chosen(h *History) Sampler
}

// SuggestBatch proposes n points for a synchronous batch: jointly when s
// (or, for a Chooser, the sampler it chooses for h) is a BatchSampler,
// else one at a time, each seeing the earlier ones as pending (Kriging
// Believer in gpbo). The points come back rounded (Space.Round), each
// with its Origin (a joint batch is all design or all model). rng(i) is
// the random source of trial number i; a joint batch draws from
// rng(h.Trials). A point that breaks a limit known before evaluation
// (History.Admits) is asked for again (suggestAdmissible). h is not
// modified.
func SuggestBatch(ctx context.Context, s Sampler, h *History, n int, rng func(trial int) *rand.Rand) ([][]float64, []Origin, error) {
	inner := s
	if c, ok := s.(Chooser); ok {
		inner = c.Chosen(h)
	}
	if bs, ok := inner.(BatchSampler); ok && n > 1 {
		o := origin(s, h)
		us, err := bs.SuggestBatch(ctx, h, n, rng(h.Trials))
		if err != nil {
			return nil, nil, err
		}
		if len(us) != n {
			return nil, nil, fmt.Errorf("%s returned %d points for a batch of %d", s.Name(), len(us), n)
		}
		origins := slices.Repeat([]Origin{o}, n)
		for _, u := range us {
			h.Space.Round(u)
		}
		for i, u := range us {
			if h.Admits(u) {
				continue
			}
			hb := *h
			hb.Pending = slices.Concat(h.Pending, us[:i], us[i+1:])
			if us[i], origins[i], err = suggestAdmissible(ctx, s, &hb, rng(h.Trials+i)); err != nil {
				return nil, nil, fmt.Errorf("trial %d: %w", h.Trials+i, err)
			}
		}
		return us, origins, nil
	}
	hb := *h
	hb.Pending = slices.Clone(h.Pending)
	us := make([][]float64, 0, n)
	origins := make([]Origin, 0, n)
	for range n {
		u, o, err := suggestAdmissible(ctx, s, &hb, rng(hb.Trials))
		if err != nil {
			return nil, nil, fmt.Errorf("trial %d: %w", hb.Trials, err)
		}
		us = append(us, u)
		origins = append(origins, o)
		hb.Pending = append(hb.Pending, u)
		hb.Trials++
	}
	return us, origins, nil
}

// MaxScreenTries bounds the suggestions asked for one point in a study
// with limits known before evaluation (History.Admissible).
const MaxScreenTries = 100

// suggestAdmissible asks s for a point for h and returns it rounded, with
// its Origin. When the point breaks a limit known before evaluation, s is
// asked again, up to MaxScreenTries times in all, each time with the
// points it proposed so far pending and a fresh random source drawn from
// r: a sampler that does not screen its proposals itself (tpe, a peer)
// then moves away from them, and a random one draws again, which makes
// random search uniform over the admissible points. When every try
// breaks a limit the last point is returned with a warning: evaluated,
// it is judged infeasible and teaches the constrained models, where
// refusing to suggest would stop the study.
func suggestAdmissible(ctx context.Context, s Sampler, h *History, r *rand.Rand) ([]float64, Origin, error) {
	hr := *h
	for try := 1; ; try++ {
		o := origin(s, &hr)
		u, err := s.Suggest(ctx, &hr, r)
		if err != nil {
			return nil, "", err
		}
		h.Space.Round(u)
		if h.Admits(u) {
			return u, o, nil
		}
		if try == MaxScreenTries {
			slog.Warn("no suggestion met the limits known before evaluation; evaluating one that does not", "sampler", s.Name(), "tries", try)
			return u, o, nil
		}
		hr.Pending = append(slices.Clip(hr.Pending), u)
		r = rand.New(rand.NewPCG(r.Uint64(), uint64(try)))
	}
}
