package sampler

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/space"
)

// Beyond 200 observations (gpbo) or trials of an epoch (casmopolitan) only
// every 10th hyper-parameter fit runs all its starts (docs/gp-defaults.md).
func TestFullFit(t *testing.T) {
	for n, want := range map[int]bool{1: true, 150: true, 200: true, 201: false, 209: false, 210: true, 215: false, 1000: true} {
		if got := fullFit(n); got != want {
			t.Errorf("fullFit(%d) = %v, want %v", n, got, want)
		}
	}
}

// TestGPBORefitEvery: with RefitEvery = 3 the hyper-parameters are fitted
// at 0, 3, 6, ... observations after the design and reused as they are in
// between, while every model holds all the observations (spec §3.2).
func TestGPBORefitEvery(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1},
	)
	rng := rand.New(rand.NewPCG(1, 1))
	obs := make([]Observation, 12)
	for i := range obs {
		u := sp.Sample(rng)
		obs[i] = Observation{X: u, Y: math.Sin(6*u[0]) + u[1]*u[1]}
	}
	g := NewGPBO()
	g.InitPoints, g.RefitEvery = 5, 3
	var last []float64
	for n := 5; n <= len(obs); n++ {
		m, err := g.fit(sp, obs[:n], rand.New(rand.NewPCG(2, uint64(n))))
		if err != nil {
			t.Fatal(err)
		}
		if m.Len() != n {
			t.Fatalf("model on %d observations holds %d", n, m.Len())
		}
		p := m.Params()
		if refit := (n-5)%3 == 0; refit == slices.Equal(p, last) {
			t.Errorf("%d observations: refit %v, but the hyper-parameters %v were %v before", n, refit, p, last)
		}
		last = p
	}
}

// TestFitToTheSameDataIsReused: a second fit to the same observations (the
// next point of a batch asked one by one, an ask after a failed trial)
// reuses the first's hyper-parameters instead of fitting again, whatever
// its random starts; new data is fitted.
func TestFitToTheSameDataIsReused(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1})
	rng := rand.New(rand.NewPCG(3, 4))
	var obs []Observation
	for range 30 {
		u := sp.Sample(rng)
		obs = append(obs, Observation{X: u, Y: math.Sin(6*u[0]) + u[1]*u[1]})
	}
	g := NewGPBO()
	first, err := g.fit(sp, obs, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	again, err := g.fit(sp, obs, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first.Params(), again.Params()) || g.warm.fits != 1 {
		t.Fatalf("a fit to the same data fitted again (%d fits): %v, then %v", g.warm.fits, first.Params(), again.Params())
	}
	obs[0].Y += 1
	if _, err := g.fit(sp, obs, rand.New(rand.NewPCG(9, 9))); err != nil {
		t.Fatal(err)
	}
	if g.warm.fits != 2 {
		t.Fatalf("a fit to other data was not fitted (%d fits)", g.warm.fits)
	}
}
