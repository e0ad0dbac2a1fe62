package gpbo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

func TestOneHotGPDefaults(t *testing.T) {
	g := NewOneHot()
	if g.Acquisition != AcqLCB || g.Kappa != 2 || g.InitPoints != 24 || g.Candidates != 5000 {
		t.Fatalf("onehot-gp: acquisition %q κ = %v, %d initial points, %d candidates; want lcb, 2, 24, 5000 (mixed spec §4.1, §4.4)",
			g.Acquisition, g.Kappa, g.InitPoints, g.Candidates)
	}
}

// TestOneHotGPDesignIsUniform: the first InitPoints proposals are uniform
// draws from the trial's source, as random search would make them.
func TestOneHotGPDesignIsUniform(t *testing.T) {
	sp := samplertest.ToySpace(t)
	h := &sampler.History{Space: sp, Seed: 3}
	g := NewOneHot()
	g.InitPoints = 5
	for i := range 5 {
		h.Trials = i
		u, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		if want := sp.Sample(rand.New(rand.NewPCG(3, uint64(i)))); !slices.Equal(u, want) {
			t.Fatalf("design point %d = %v, want the uniform draw %v", i, u, want)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.ToyValue(sp, u)})
	}
}

// TestOneHotGPOptimisesToy: after its design the baseline finds the toy
// problem's best categories and never repeats a configuration.
func TestOneHotGPOptimisesToy(t *testing.T) {
	g := NewOneHot()
	g.InitPoints, g.Candidates = 8, 500
	h := samplertest.ToyHistory(t, g, 30, 1)
	seen := map[string]bool{}
	best := h.Observed[0]
	for _, o := range h.Observed {
		k := h.Space.Key(o.X)
		if seen[k] {
			t.Fatalf("configuration %v proposed twice", h.Space.Decode(o.X))
		}
		seen[k] = true
		if o.Y < best.Y {
			best = o
		}
	}
	a := h.Space.Decode(best.X)
	if a["a"] != "q" || a["b"] != false || best.Y > 0.05 {
		t.Fatalf("best after 30 trials: %v with value %.4g; want a = q, b = false and value < 0.05", a, best.Y)
	}
}
