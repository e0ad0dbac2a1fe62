package sampler

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/space"
)

func TestOneHotGPDefaults(t *testing.T) {
	g := NewOneHotGP()
	if g.Acquisition != AcqLCB || g.Kappa != 2 || g.InitPoints != 24 || g.Candidates != 5000 {
		t.Fatalf("onehot-gp: acquisition %q κ = %v, %d initial points, %d candidates; want lcb, 2, 24, 5000 (mixed spec §4.1, §4.4)",
			g.Acquisition, g.Kappa, g.InitPoints, g.Candidates)
	}
}

// TestOneHotGPDesignIsUniform: the first InitPoints proposals are uniform
// draws from the trial's source, as random search would make them.
func TestOneHotGPDesignIsUniform(t *testing.T) {
	sp := toySpace(t)
	h := &History{Space: sp, Seed: 3}
	g := NewOneHotGP()
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
		h.Observed = append(h.Observed, Observation{X: u, Y: toyValue(sp, u)})
	}
}

// TestOneHotGPOptimisesToy: after its design the baseline finds the toy
// problem's best categories and never repeats a configuration.
func TestOneHotGPOptimisesToy(t *testing.T) {
	g := NewOneHotGP()
	g.InitPoints, g.Candidates = 8, 500
	h := toyHistory(t, g, 30, 1)
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

// toySpace is a small mixed space: two categorical variables (3 and 2
// choices), one float and one int.
func toySpace(t testing.TB) *space.Space {
	t.Helper()
	sp, err := space.New(
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"p", "q", "r"}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "b", Kind: space.Bool},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 5},
	)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// toyValue is minimised at a = q, b = false, x = 0.3, n = 2.
func toyValue(sp *space.Space, u []float64) float64 {
	a := sp.Decode(u)
	x := a["x"].(float64)
	n := float64(a["n"].(int))
	v := (x-0.3)*(x-0.3) + 0.05*(n-2)*(n-2)
	v += map[string]float64{"p": 0.5, "q": 0, "r": 1}[a["a"].(string)]
	if a["b"].(bool) {
		v += 0.3
	}
	return v
}

// toyHistory runs c sequentially for n suggestions on the toy problem.
func toyHistory(t testing.TB, c Sampler, n int, seed uint64) *History {
	t.Helper()
	sp := toySpace(t)
	h := &History{Space: sp, Seed: seed}
	for i := range n {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, Observation{X: u, Y: toyValue(sp, u)})
	}
	return h
}
