package sampler

import (
	"context"
	"log/slog"
	"math/rand/v2"

	"github.com/boaopt/boa/qmc"
	"github.com/boaopt/boa/space"
)

// Random samples every parameter independently and uniformly in its encoded
// range (log-uniform for log-scale parameters).
type Random struct{}

func (Random) Name() string { return "random" }

// Designing is true: no model chooses random points.
func (Random) Designing(*History) bool { return true }

func (Random) Suggest(_ context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	return h.Space.Sample(rng), nil
}

// Sobol walks one scrambled Sobol sequence (spec gp-and-acquisitions §6.2)
// whose scrambling is drawn from the study seed, taking point number
// h.Trials. It needs no state: the sequence is regenerated on each call.
type Sobol struct{}

func (Sobol) Name() string { return "sobol" }

// Designing is true: the whole sequence is a design.
func (Sobol) Designing(*History) bool { return true }

func (Sobol) Suggest(_ context.Context, h *History, _ *rand.Rand) ([]float64, error) {
	return sobolPoint(h, h.Trials, slog.Default()), nil
}

// sobolPoint returns point i of the study's scrambled Sobol sequence,
// rounded to legal values.
func sobolPoint(h *History, i int, log *slog.Logger) []float64 {
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

// freshDesignPoint returns u, a point of an initial design, unless its
// configuration has been tried already (evaluated, running, failed or
// pruned); then an untried uniform random point (untried). On a small
// discrete space a design drawn without looking at the history would spend
// trials on repeats; on any other it returns u, so the design is unchanged.
func freshDesignPoint(h *History, u []float64, rng *rand.Rand) []float64 {
	return untried(h.Space, h.seen(), u, rng)
}

// maxFreshTries bounds the random draws that look for an untried
// configuration.
const maxFreshTries = 1000

// untried returns u unless its configuration is in seen; then the first of
// up to maxFreshTries uniform random draws that is not, or the last draw
// when every one is (a space with fewer configurations than trials).
func untried(sp *space.Space, seen map[string]bool, u []float64, rng *rand.Rand) []float64 {
	for i := 0; i < maxFreshTries && seen[sp.Key(u)]; i++ {
		u = sp.Sample(rng)
	}
	return u
}

// untriedPoint is freshDesignPoint of a uniform random point: the uniform
// designs, and the fallback of the model-based samplers when their
// surrogate or its optimiser fails.
func untriedPoint(h *History, rng *rand.Rand) []float64 {
	return freshDesignPoint(h, h.Space.Sample(rng), rng)
}
