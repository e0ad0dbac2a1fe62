package sampler

import "math/rand/v2"

// Helpers of the internal reproduction tests, for the external ones.
var (
	ParallelSeeds   = parallelSeeds
	MeanSE          = meanSE
	NewGPyOptOneHot = newGPyOptOneHot
)

// PlaybookAcquisition is the penalised acquisition Playbook maximises for
// h, on the model's inputs (Space.Features).
func PlaybookAcquisition(p *Playbook, h *History, rng *rand.Rand) (func(x []float64) float64, error) {
	model, af, err := p.penalised(h, rng)
	if err != nil {
		return nil, err
	}
	return func(x []float64) float64 { return af.Eval(model, x, nil) }, nil
}
