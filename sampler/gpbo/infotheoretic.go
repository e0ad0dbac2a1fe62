package gpbo

import (
	"math/rand/v2"
	"strings"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/sampler"
)

// fitbo reports whether g's acquisition is FITBO's, which samples the
// minimum value η with the hyper-parameters [000 §3.3; spec §4.6].
func (g *GPBO) fitbo() bool {
	a := strings.ToLower(g.Acquisition)
	return a == AcqFITBO || a == AcqFITBOMM
}

// meanModels are the models whose averaged posterior mean Recommend
// minimises: the MAP fit, or one GP per hyper-parameter sample.
func (g *GPBO) meanModels(h *sampler.History, rng *rand.Rand) ([]acq.BatchModel, error) {
	m, err := g.Fit(h.Space, h.Observed, rng)
	if err != nil {
		return nil, err
	}
	return []acq.BatchModel{m}, nil
}
