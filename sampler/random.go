package sampler

import (
	"context"
	"log/slog"
	"math/rand/v2"
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
	return SobolPoint(h, h.Trials, slog.Default()), nil
}

// RandomUntried is random search without repeats: a uniform random point
// whose configuration has not been tried, while there are others (the
// NAS-Bench baseline `rs`, spec §8, which draws without replacement).
type RandomUntried struct{}

func (RandomUntried) Name() string { return "rs" }

// Designing is true: no model chooses random points.
func (RandomUntried) Designing(*History) bool { return true }

func (RandomUntried) Suggest(_ context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	return UntriedPoint(h, rng), nil
}
