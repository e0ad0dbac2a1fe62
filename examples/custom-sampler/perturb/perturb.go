// Package perturb is an example of a sampler of one's own, registered
// under a name so that stored studies, study files, boa run and the
// server can use it like boa's own (../README.md).
//
// Perturb draws uniform points until Init trials have completed, then
// perturbs the best point so far with Gaussian noise of scale Scale in the
// unit cube. It keeps no state between calls: everything it needs is in
// the History, so a study that uses it resumes correctly after a crash.
package perturb

import (
	"context"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
)

// Perturb is local random search around the best point so far.
type Perturb struct {
	Init  int     // uniform points before the search starts
	Scale float64 // standard deviation of the perturbation, in the unit cube
}

// Registering from init makes "perturb" known to every program that
// imports this package, as database/sql drivers do.
func init() {
	sampler.Register("perturb", func() sampler.Sampler { return &Perturb{Init: 5, Scale: 0.1} })
}

func (*Perturb) Name() string { return "perturb" }

// Designing tells the study which trials were uniform draws, so that it
// records each trial's origin (optional: sampler.Designer).
func (p *Perturb) Designing(h *sampler.History) bool { return len(h.Observed) < p.Init }

// Suggest works in the unit cube of h.Space and minimises: a maximised
// study's values arrive negated.
func (p *Perturb) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	if p.Designing(h) {
		return h.Space.Sample(rng), nil
	}
	best := h.Observed[0]
	for _, o := range h.Observed {
		if o.Y < best.Y {
			best = o
		}
	}
	u := make([]float64, h.Space.Len())
	for i := range u {
		u[i] = min(1, max(0, best.X[i]+p.Scale*rng.NormFloat64()))
	}
	return u, nil // the study rounds discrete coordinates (Space.Round)
}
