package sampler

import (
	"context"
	"math/rand/v2"
	"sync"

	"github.com/boaopt/boa/space"
)

// Auto chooses a sampler for the space, by a fixed rule (docs/samplers.md):
//
//   - no categorical or boolean parameter, or a conditional space: gpbo;
//   - more than autoManyCategorical categorical parameters: casmopolitan,
//     whose trust regions scale to many categorical dimensions (seed 000
//     §5.6: Pest Control 25, MaxSAT 60, Ackley-53 50);
//   - otherwise: cocabo with λ learned (seed 000 §5.5: best or on par on
//     Func-2C/3C and Ackley-5C with a few categorical variables).
//
// The mixed samplers get the initial design of gpbo, max(5, d+1) points,
// instead of the papers' 24 and 20: those were sized for budgets of 150–200
// evaluations, and auto serves studies of any budget.
type Auto struct {
	mu     sync.Mutex
	chosen map[string]Sampler
}

// autoManyCategorical is the number of categorical parameters above which
// auto prefers casmopolitan to cocabo.
const autoManyCategorical = 5

// NewAuto returns the auto sampler.
func NewAuto() *Auto { return &Auto{chosen: map[string]Sampler{}} }

func (*Auto) Name() string { return "auto" }

// Choice names the sampler auto uses for sp.
func (*Auto) Choice(sp *space.Space) string {
	categorical, conditional := 0, false
	for _, p := range sp.Params() {
		if p.Kind == space.Categorical || p.Kind == space.Bool {
			categorical++
		}
		conditional = conditional || len(p.When) > 0
	}
	switch {
	case categorical == 0 || conditional:
		return "gpbo"
	case categorical > autoManyCategorical:
		return "casmopolitan"
	}
	return "cocabo"
}

// sampler returns the instance auto uses for sp, made once so that its
// warm starts are kept between calls.
func (a *Auto) sampler(sp *space.Space) Sampler {
	name := a.Choice(sp)
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, ok := a.chosen[name]; ok {
		return s
	}
	init := max(5, sp.Len()+1)
	var s Sampler
	switch name {
	case "casmopolitan":
		c := NewCasmopolitan()
		c.InitPoints = init
		s = c
	case "cocabo":
		c := NewCoCaBO()
		c.InitPoints = init
		s = c
	default:
		s = NewGPBO()
	}
	a.chosen[name] = s
	return s
}

func (a *Auto) Suggest(ctx context.Context, h *History, rng *rand.Rand) ([]float64, error) {
	return a.sampler(h.Space).Suggest(ctx, h, rng)
}
