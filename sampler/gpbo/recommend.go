package gpbo

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// Recommend implements sampler.Recommender: the minimiser of the
// posterior mean of the GP fitted to the completed trials, x̂ = argmin μ
// [000 §3.3.3; spec §7], and μ(x̂). Pending trials do not enter: a
// recommendation rests on what has been observed.
func (g *GPBO) Recommend(ctx context.Context, h *sampler.History, rng *rand.Rand) ([]float64, float64, error) {
	switch {
	case len(h.Observed) < 2:
		return nil, 0, errors.New("a recommendation needs at least 2 completed trials")
	case len(h.Constraints) > 0:
		// The mean of the objective alone could recommend an infeasible
		// point; the best feasible trial is the answer there.
		return nil, 0, errors.New("a constrained study has no recommendation from the model; its best feasible trial is the answer")
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	models, err := g.meanModels(h, rng)
	if err != nil {
		return nil, 0, err
	}
	mean := make(acq.Average, len(models))
	for j, m := range models {
		mean[j] = acq.Bind(acq.LCB{}, m) // κ = 0: α = −μ
	}
	return bo.Recommend(h.Space, mean, h, rng)
}
