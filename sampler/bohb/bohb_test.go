package bohb

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

func cube(d int) *space.Space {
	var ps []space.Param
	for i := range d {
		ps = append(ps, space.Param{Name: string(rune('a' + i)), Kind: space.Float, Low: 0, High: 1})
	}
	return space.MustNew(ps...)
}

// TestKDE: identical points get the bandwidth floor, and the density is
// higher at the points than away from them; a categorical coordinate's λ
// is at most (L − 1)/L.
func TestKDE(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"a", "b", "c"}})
	same := []point{{[]float64{0.3, 1.0 / 6}, 0}, {[]float64{0.3, 1.0 / 6}, 0}, {[]float64{0.3, 1.0 / 6}, 0}}
	k := newKDE(sp, same, 1e-3)
	if k.bw[0] != 1e-3 || k.bw[1] != 1e-3 {
		t.Errorf("bandwidths of identical points %v, want the floor 1e-3", k.bw)
	}
	spread := []point{{[]float64{0.2, 1.0 / 6}, 0}, {[]float64{0.3, 0.5}, 0}, {[]float64{0.4, 5.0 / 6}, 0}, {[]float64{0.25, 1.0 / 6}, 0}}
	k = newKDE(sp, spread, 1e-3)
	if k.bw[1] > 2.0/3 {
		t.Errorf("λ %v above (L−1)/L", k.bw[1])
	}
	if near, far := k.logDensity([]float64{0.25, 1.0 / 6}), k.logDensity([]float64{0.9, 5.0 / 6}); !(near > far) {
		t.Errorf("log density near the points %v, far %v", near, far)
	}
}

// TestBudget: the model is fitted on the largest step with at least d + 1
// observations; the complete trials' values count above every step.
func TestBudget(t *testing.T) {
	sp := cube(2)
	h := &sampler.History{Space: sp}
	add := func(step int64, n int) {
		for i := range n {
			h.Partial = append(h.Partial, sampler.Partial{X: []float64{float64(i) / 10, 0.5}, Step: step, Y: float64(i)})
		}
	}
	add(1, 9)
	add(3, 4)
	add(9, 2) // too few
	b := New()
	pts, ok := b.budget(h)
	if !ok || len(pts) != 4 {
		t.Fatalf("budget: %d points, %v; want step 3's 4", len(pts), ok)
	}
	for i := range 4 {
		h.Observed = append(h.Observed, sampler.Observation{X: []float64{0.1 * float64(i), 0.1}, Y: float64(i)})
	}
	if pts, _ := b.budget(h); len(pts) != 4 || pts[0].x[1] != 0.1 {
		t.Errorf("with 4 complete trials: %v, want their values", pts)
	}
	h.Observed[3].Infeasible = true
	if pts, _ := b.budget(h); pts[3].y != 2.2 {
		t.Errorf("infeasible trial's value %v, want the penalty 2 + 10 %% of 2", pts[3].y)
	}
}

// TestAdmissible: with a known limit (History.Admissible) every
// suggestion is admissible, model and random alike, and the same rng gives
// the same suggestion.
func TestAdmissible(t *testing.T) {
	sp := cube(2)
	h := &sampler.History{Space: sp, Admissible: func(u []float64) bool { return u[0] < 0.5 }}
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 30 {
		u := sp.Sample(rng)
		u[0] /= 2
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: math.Abs(u[0]-0.2) + math.Abs(u[1]-0.7)})
		h.Trials = i + 1
	}
	b := New()
	for i := range 20 {
		h.Trials = 30 + i
		u, err := b.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		if !h.Admits(u) {
			t.Errorf("trial %d: %v is not admissible", h.Trials, u)
		}
		v, _ := b.Suggest(context.Background(), h, rand.New(rand.NewPCG(2, uint64(i))))
		if !slices.Equal(u, v) {
			t.Errorf("trial %d: %v then %v from the same rng", h.Trials, u, v)
		}
	}
}

// TestRandomFraction: with the default 1/3 trials 2, 5, 8, … are random,
// a third of any run of trials; random_fraction 0 makes none and 1 all.
func TestRandomFraction(t *testing.T) {
	b := New()
	n := 0
	for tr := range 300 {
		if r := b.randomTrial(tr); r != (tr%3 == 2) {
			t.Fatalf("trial %d: random %v", tr, r)
		} else if r {
			n++
		}
	}
	if n != 100 {
		t.Errorf("%d random trials of 300, want 100", n)
	}
	for v, want := range map[string]int{"0": 0, "1": 300, "0.25": 75} {
		b := New()
		if err := b.Configure(sampler.Options{"random_fraction": v}); err != nil {
			t.Fatal(err)
		}
		n := 0
		for tr := range 300 {
			if b.randomTrial(tr) {
				n++
			}
		}
		if n != want {
			t.Errorf("random_fraction %s: %d random trials of 300, want %d", v, n, want)
		}
	}
	for _, bad := range []sampler.Options{{"random_fraction": "1.5"}, {"top_n_percent": "0"}, {"num_samples": "0"}, {"min_bandwidth": "-1"}, {"bandwidth_factor": "x"}, {"random_every": "3"}} {
		if err := New().Configure(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestFewBad: a budget with d + 1 observations, all good, is modelled:
// the bad density is the cube's uniform one, and the suggestion is near
// the good points.
func TestFewBad(t *testing.T) {
	sp := cube(2)
	h := &sampler.History{Space: sp, Trials: 3}
	for i := range 3 {
		h.Observed = append(h.Observed, sampler.Observation{X: []float64{0.8 + 0.01*float64(i), 0.2}, Y: float64(i)})
	}
	b := New()
	if b.Designing(h) {
		t.Fatal("d + 1 observations: still designing")
	}
	if g := newKDE(sp, nil, 1e-3).logDensity([]float64{0.5, 0.5}); g != 0 {
		t.Errorf("empty density: log %v, want 0", g)
	}
	u, err := b.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(u[0]-0.81) > 0.2 || math.Abs(u[1]-0.2) > 0.2 {
		t.Errorf("suggestion %v, want one near the good points (0.8…0.82, 0.2)", u)
	}
}
