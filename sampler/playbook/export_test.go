package playbook

import (
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
)

// Acquisition is the penalised acquisition Playbook maximises for h, on
// the model's inputs (Space.Features), for the external tests.
func Acquisition(p *Playbook, h *sampler.History, rng *rand.Rand) (func(x []float64) float64, error) {
	model, af, err := p.penalised(h, rng)
	if err != nil {
		return nil, err
	}
	return func(x []float64) float64 { return af.Eval(model, x, nil) }, nil
}
