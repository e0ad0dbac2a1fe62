package bo

import (
	"log/slog"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// SobolPoint returns point i of the study's scrambled Sobol sequence,
// rounded to legal values.
func SobolPoint(h *sampler.History, i int, log *slog.Logger) []float64 {
	s := qmc.NewSobol(h.Space.Len(), rand.New(rand.NewPCG(h.Seed, 0x50b01)))
	if s.Fallback() && i == 0 {
		// Spec §6.2: beyond the direction-number table, uniform draws and
		// a warning (once, with the study's first point).
		log.Warn("sobol: more parameters than the Sobol table has dimensions; the design is uniform random", "parameters", h.Space.Len(), "max", qmc.MaxSobolDim)
	}
	s.Skip(i)
	u := make([]float64, h.Space.Len())
	s.Next(u)
	h.Space.Round(u)
	return u
}

// FreshDesignPoint returns u, a point of an initial design, unless its
// configuration has been tried already (evaluated, running, failed or
// pruned) or breaks a limit known before evaluation (Excluded); then an
// untried admissible uniform random point (Untried). On a small discrete space a design drawn
// without looking at the history would spend trials on repeats; on any
// other, with no known limit, it returns u, so the design is unchanged.
func FreshDesignPoint(h *sampler.History, u []float64, rng *rand.Rand) []float64 {
	return Untried(h.Space, Excluded(h), u, rng)
}

// Excluded reports the points a sampler must not propose for h: the
// configurations tried already (Seen) and those h does not admit
// (History.Admits). It is the Exclude of the model-based samplers'
// opt.Domain.
func Excluded(h *sampler.History) func(u []float64) bool {
	seen := Seen(h)
	return func(u []float64) bool { return seen[h.Space.Key(u)] || !h.Admits(u) }
}

// MaxFreshTries bounds the random draws that look for an untried
// configuration.
const MaxFreshTries = 1000

// Untried returns u unless it is excluded (a configuration tried already:
// Excluded); then the first of up to MaxFreshTries uniform random draws
// that is not, or the last draw when every one is (a space with fewer
// configurations than trials).
func Untried(sp *space.Space, excluded func(u []float64) bool, u []float64, rng *rand.Rand) []float64 {
	for i := 0; i < MaxFreshTries && excluded(u); i++ {
		u = sp.Sample(rng)
	}
	return u
}

// UntriedPoint is FreshDesignPoint of a uniform random point: the uniform
// designs, and the fallback of the model-based samplers when their
// surrogate or its optimiser fails.
func UntriedPoint(h *sampler.History, rng *rand.Rand) []float64 {
	return FreshDesignPoint(h, h.Space.Sample(rng), rng)
}

// DesignSize is gpbo's default initial design, max(5, d+1) points; auto
// gives it to the mixed samplers too.
func DesignSize(sp *space.Space) int { return max(5, sp.Len()+1) }

// InDesign reports whether CoCaBO or CASMOPOLITAN, whose designs have n
// points, should propose a design point, given the trials completed since
// the design began and the pending ones: while they number fewer than n
// together, and while fewer than half the design has completed, since the
// model needs data (Ax's Sobol step waits for half its trials the same
// way). In a parallel study the pending trials are mostly design points
// still running. Counting the completed trials alone, as Optuna's
// n_startup_trials does and gpbo still does, made w workers run w − 1
// design points too many. With more than n/2 workers the half rule still
// proposes design points beyond n; their recorded Origin keeps the
// replays from taking them for bandit plays (replayEXP3) or trust-region
// steps (Casmopolitan.replay). A failed or pruned design trial still makes
// way for another. gpbo keeps no such state, and its design of
// max(5, d + 1) points is too small to start the model without w − 1 of them
// (docs/samplers.md, "Parallel workers").
func InDesign(completed, pending, n int) bool {
	return 2*completed < n || completed+pending < n
}

// ModelFree reports whether o is a point no model chose, a design point
// or an enqueued one, by its recorded origin. When none is recorded it
// returns inDesign, whether o's position in the history is that of a
// design point in a sequential study (among the design's first n).
func ModelFree(o sampler.Observation, inDesign bool) bool {
	switch o.Origin {
	case sampler.OriginDesign, sampler.OriginUser:
		return true
	case sampler.OriginModel:
		return false
	}
	return inDesign
}

// Seen returns the keys (Space.Key) of the configurations tried so far:
// evaluated, running, failed or pruned. The model-based samplers never
// propose them again while there are others.
func Seen(h *sampler.History) map[string]bool {
	without := h.WithoutValue()
	seen := make(map[string]bool, len(h.Observed)+len(without))
	for _, o := range h.Observed {
		seen[h.Space.Key(o.X)] = true
	}
	for _, u := range without {
		seen[h.Space.Key(u)] = true
	}
	return seen
}

// Level returns the category index of categorical coordinate x with L
// choices: the cell k with k/L ≤ x < (k+1)/L (the encoding contract of
// package space, code (k+½)/L).
func Level(x float64, L int) int {
	if math.IsNaN(x) {
		x = 0.5
	}
	return min(max(int(x*float64(L)), 0), L-1)
}
