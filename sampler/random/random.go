package random

import (
	"context"
	"log/slog"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// Uniform samples every parameter independently and uniformly in its encoded
// range (log-uniform for log-scale parameters).
type Uniform struct{}

func (Uniform) Name() string { return "random" }

// Designing is true: no model chooses random points.
func (Uniform) Designing(*sampler.History) bool { return true }

func (Uniform) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	return h.Space.Sample(rng), nil
}

// Sobol walks one scrambled Sobol sequence (spec gp-and-acquisitions §6.2)
// whose scrambling is drawn from the study seed, taking point number
// h.Trials. It needs no state: the sequence is regenerated on each call.
// In a study with limits known before evaluation (History.Admissible) it
// walks on from there to the first point that is admissible and not tried
// yet, within bo.MaxFreshTries points, so that its points cover the
// admissible region evenly; the configurations tried it then keeps
// between asks (bo.Tried), as rs does.
type Sobol struct{ tried *bo.Tried }

func (Sobol) Name() string { return "sobol" }

// Designing is true: the whole sequence is a design.
func (Sobol) Designing(*sampler.History) bool { return true }

func (s Sobol) Suggest(_ context.Context, h *sampler.History, _ *rand.Rand) ([]float64, error) {
	u := bo.SobolPoint(h, h.Trials, slog.Default())
	if h.Admissible == nil {
		return u, nil
	}
	excluded, done := excludedBy(s.tried, h)
	defer done()
	for i := 1; i < bo.MaxFreshTries && excluded(u); i++ {
		u = bo.SobolPoint(h, h.Trials+i, slog.Default())
	}
	return u, nil
}

// Untried is random search without repeats: a uniform random point
// whose configuration has not been tried, while there are others (the
// NAS-Bench baseline `rs`, spec §8, which draws without replacement).
// The configurations tried it keeps between asks (bo.Tried), keyed once
// per trial; the zero value rebuilds them on every ask (bo.Seen).
type Untried struct{ tried *bo.Tried }

func (Untried) Name() string { return "rs" }

// Designing is true: no model chooses random points.
func (Untried) Designing(*sampler.History) bool { return true }

func (r Untried) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	u := h.Space.Sample(rng)
	excluded, done := excludedBy(r.tried, h)
	defer done()
	return bo.Untried(h.Space, excluded, u, rng), nil // bo.UntriedPoint with the kept set
}

// excludedBy is t.Excluded(h), or bo.Excluded(h) without t.
func excludedBy(t *bo.Tried, h *sampler.History) (excluded func([]float64) bool, done func()) {
	if t == nil {
		return bo.Excluded(h), func() {}
	}
	return t.Excluded(h)
}

func init() {
	sampler.Register("random", func() sampler.Sampler { return Uniform{} })
	sampler.Register("sobol", func() sampler.Sampler { return Sobol{new(bo.Tried)} })
	sampler.Register("rs", func() sampler.Sampler { return Untried{new(bo.Tried)} })
}

// MultiObjective implements sampler.MultiObjective: random points need
// no value, so they serve a study with any number of objectives.
func (Uniform) MultiObjective() {}

// MultiObjective implements sampler.MultiObjective, as Uniform's.
func (Sobol) MultiObjective() {}

// MultiObjective implements sampler.MultiObjective, as Uniform's.
func (Untried) MultiObjective() {}
