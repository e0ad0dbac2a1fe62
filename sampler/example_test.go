package sampler_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// local is a sampler of one's own: it perturbs the best point so far, or
// draws a uniform one while there is none. It works in the unit cube of
// h.Space, minimising (a maximised study's values arrive negated).
type local struct{}

func (local) Name() string { return "local" }

func (local) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	u := make([]float64, h.Space.Len())
	if len(h.Observed) == 0 {
		for i := range u {
			u[i] = rng.Float64()
		}
		return u, nil
	}
	best := h.Observed[0]
	for _, o := range h.Observed {
		if o.Y < best.Y {
			best = o
		}
	}
	for i := range u {
		u[i] = min(1, max(0, best.X[i]+0.1*rng.NormFloat64()))
	}
	return u, nil
}

// Any Sampler can drive an in-memory study: study.New runs the instance
// it is given. (A stored study, study.Create, names a registered one.)
func Example_ownSampler() {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5})
	st, err := study.New(sp, study.Options{Sampler: local{}, Seed: 1, Direction: study.Maximize})
	if err != nil {
		panic(err)
	}
	err = st.Optimize(context.Background(), func(_ context.Context, t *study.Trial) (float64, error) {
		x := t.Float("x")
		return -(x - 2) * (x - 2), nil
	}, 60, study.OptimizeOptions{})
	if err != nil {
		panic(err)
	}
	best, _, _ := st.Best(context.Background())
	fmt.Printf("x = %.1f\n", best.Float("x"))
	// Output: x = 2.0
}
