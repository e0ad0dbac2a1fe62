package random

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/space"
)

func TestSobolIsStateless(t *testing.T) {
	sp := samplertest.UnitSpace(t, 3)
	at := func(i int) []float64 {
		u, _ := Sobol{}.Suggest(context.Background(), &sampler.History{Space: sp, Trials: i, Seed: 7}, nil)
		return u
	}
	if !slices.Equal(at(4), at(4)) {
		t.Fatal("the same trial index gave two points")
	}
	if slices.Equal(at(4), at(5)) {
		t.Fatal("consecutive trials got the same point")
	}
}

// rs and sobol, keeping the tried configurations between asks, suggest
// what they suggest rebuilding them on every ask, on a small discrete
// space where the tried ones matter, as trials are added, removed and
// rewritten in place.
func TestKeptTriedChangesNothing(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "i", Kind: space.Int, Low: 1, High: 6},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}},
	)
	evt := rand.New(rand.NewPCG(1, 1))
	for _, pair := range [][2]sampler.Sampler{{Untried{new(bo.Tried)}, Untried{}}, {Sobol{new(bo.Tried)}, Sobol{}}} {
		var xs [][]float64
		for step := range 40 {
			h := &sampler.History{Space: sp, Trials: step, Seed: 3, Pending: xs}
			if pair[1].Name() == "sobol" {
				h.Admissible = func(u []float64) bool { return u[1] < 0.6 }
			}
			var us [2][]float64
			for k, s := range pair {
				u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(step))))
				if err != nil {
					t.Fatal(err)
				}
				us[k] = u
			}
			if !slices.Equal(us[0], us[1]) {
				t.Fatalf("%s, step %d: kept %v, rebuilt %v", pair[1].Name(), step, us[0], us[1])
			}
			xs = append(xs, us[0])
			switch r := evt.IntN(10); {
			case r == 0 && len(xs) > 1:
				k := evt.IntN(len(xs))
				xs = slices.Delete(slices.Clone(xs), k, k+1)
			case r == 1:
				v := sp.Sample(evt)
				sp.Round(v)
				copy(xs[evt.IntN(len(xs))], v)
			}
		}
	}
}
