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
	m, err := p.Model.fit(h.Space, h.Observed, rng)
	if err != nil {
		return nil, err
	}
	model := newStandardised(m)
	af := p.acquisition(h.Space, model, h, rng)
	return func(x []float64) float64 { return af.Eval(model, x, nil) }, nil
}
