package gpbo

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
)

// TestSubset: beyond ExactLimit observations the GP is fitted to Subset of
// them, half the nearest the incumbent, in their order, and the full fits
// keep the cadence of the number of observations in all.
func TestSubset(t *testing.T) {
	sp, obs := smoothObservations(60, rand.New(rand.NewPCG(3, 4)))
	g := New()
	g.ExactLimit, g.Subset = 40, 10
	rng := rand.New(rand.NewPCG(5, 6))
	if got := g.subset(sp, obs[:40], rng); len(got) != 40 {
		t.Fatalf("at the limit the GP sees %d of 40 observations", len(got))
	}
	sub := g.subset(sp, obs, rng)
	if len(sub) != 10 {
		t.Fatalf("subset of %d observations, want 10", len(sub))
	}
	index := func(o sampler.Observation) int {
		return slices.IndexFunc(obs, func(p sampler.Observation) bool { return &p.X[0] == &o.X[0] })
	}
	best := obs[bo.BestIndex(obs)]
	var at []int
	for _, o := range sub {
		at = append(at, index(o))
	}
	if !slices.IsSorted(at) || len(slices.Compact(slices.Clone(at))) != len(at) {
		t.Errorf("subset indices %v: not distinct and in order", at)
	}
	if !slices.Contains(at, index(best)) {
		t.Errorf("subset %v leaves the incumbent %d out", at, index(best))
	}
	// The 5 nearest the incumbent (the unit square is the model's inputs)
	// are all in.
	dist := func(o sampler.Observation) float64 {
		var d float64
		for j := range o.X {
			d += (o.X[j] - best.X[j]) * (o.X[j] - best.X[j])
		}
		return d
	}
	byDist := slices.Clone(obs)
	slices.SortStableFunc(byDist, func(a, b sampler.Observation) int { return cmp.Compare(dist(a), dist(b)) })
	for _, o := range byDist[:5] {
		if !slices.Contains(at, index(o)) {
			t.Errorf("observation %d, among the 5 nearest the incumbent, is not in the subset %v", index(o), at)
		}
	}
	m, err := g.Fit(sp, obs, rng)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 10 {
		t.Errorf("the GP on 60 observations holds %d, want the subset's 10", m.Len())
	}
	h := &sampler.History{Space: sp, Seed: 1, Trials: len(obs), Observed: obs}
	if _, err := g.Suggest(context.Background(), h, rng); err != nil {
		t.Fatal(err)
	}
	g.Subset = 50
	if err := g.check(); err == nil {
		t.Error("subset 50 > exact_limit 40: no error")
	}
}
