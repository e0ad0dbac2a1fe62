package gpbo

import (
	"slices"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/transform"
)

// targets returns h with its observed values mapped by g.Targets, so that
// the GP, the incumbent and the fantasies of a suggestion all see one
// scale. The values are the minimised ones (a maximised study's turned
// sign), so a power transform spreads the good end whichever the
// direction. Where the map cannot take the values (the log of a value
// ≤ 0) h is returned as it is: the transform is the sampler's choice, not
// the user's, and must not stop a study. Recommend reads the values as
// they are, so that μ(x̂) is in the study's units.
func (g *GPBO) targets(h *sampler.History) *sampler.History {
	if g.Targets == transform.None || len(h.Observed) == 0 {
		return h
	}
	y := make([]float64, len(h.Observed))
	for i, o := range h.Observed {
		if g.Targets.Check(o.Y) != nil {
			return h
		}
		y[i] = o.Y
	}
	mapped := *h
	mapped.Observed = slices.Clone(h.Observed)
	for i, z := range g.Targets.Apply(y) {
		mapped.Observed[i].Y = z
	}
	return &mapped
}
