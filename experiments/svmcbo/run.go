package svmcbo

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/sampler"
)

// Run minimises p with s for budget evaluations, sequentially, from the
// study seed seed (trial i draws from rand.NewPCG(seed, i), as a study
// does), and returns the best feasible value seen, NaN when no feasible
// point was found. Each trial enters the history as a study with p's
// constraints would record it: an infeasible point with no value (NaN,
// spec §7.1), Infeasible set and one slack per constraint, and the
// sampler's Origin.
func Run(ctx context.Context, p *constrained.Problem, s sampler.Sampler, budget int, seed uint64) (float64, error) {
	sp := p.Space()
	h := &sampler.History{Space: sp, Seed: seed, Budget: budget}
	for _, c := range p.Eval(make([]float64, p.Dim())).Constraints {
		h.Constraints = append(h.Constraints, c.Name)
	}
	best := math.NaN()
	for i := range budget {
		h.Trials = i
		origin := sampler.OriginUnrecorded
		if d, ok := s.(sampler.Designer); ok {
			origin = sampler.OriginModel
			if d.Designing(h) {
				origin = sampler.OriginDesign
			}
		}
		u, err := s.Suggest(ctx, h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			return math.NaN(), fmt.Errorf("%s on %s, seed %d, trial %d: %w", s.Name(), p.Name(), seed, i, err)
		}
		sp.Round(u)
		r, err := p.Evaluate(sp.Decode(u))
		if err != nil {
			return math.NaN(), err
		}
		y, ok := r.Loss()
		slack := make([]float64, len(r.Constraints))
		for k, c := range r.Constraints {
			slack[k] = c.Value - c.Limit
			if c.Sense == constrained.GreaterEq || c.Sense == constrained.Greater {
				slack[k] = -slack[k]
			}
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y, Origin: origin, Slack: slack, Infeasible: !ok})
		if ok && !(y >= best) {
			best = y
		}
	}
	return best, nil
}
