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

// TestLocal: beyond ExactLimit observations the GP is fitted to Subset of
// them, in their order, half the nearest the incumbent and half the
// latest; the acquisition is maximised in the bounding box of the
// nearest.
func TestLocal(t *testing.T) {
	sp, obs := smoothObservations(60, rand.New(rand.NewPCG(3, 4)))
	g := New()
	g.ExactLimit, g.Subset = 40, 10
	if near, lo, hi := g.local(sp, obs[:40]); len(near) != 40 || lo != nil || hi != nil {
		t.Fatalf("at the limit the GP sees %d of 40 observations, box %v %v", len(near), lo, hi)
	}
	sub, lo, hi := g.local(sp, obs)
	if len(sub) != 10 {
		t.Fatalf("a subset of %d observations, want 10", len(sub))
	}
	index := func(o sampler.Observation) int {
		return slices.IndexFunc(obs, func(p sampler.Observation) bool { return &p.X[0] == &o.X[0] })
	}
	// The unit square is the model's inputs.
	best := obs[bo.BestIndex(obs)]
	dist := func(o sampler.Observation) float64 {
		var d float64
		for j := range o.X {
			d += (o.X[j] - best.X[j]) * (o.X[j] - best.X[j])
		}
		return d
	}
	byDist := slices.Clone(obs)
	slices.SortStableFunc(byDist, func(a, b sampler.Observation) int { return cmp.Compare(dist(a), dist(b)) })
	var want, got []int
	for _, o := range byDist[:5] {
		want = append(want, index(o))
	}
	for i := len(obs) - 1; len(want) < 10; i-- {
		if !slices.Contains(want, i) {
			want = append(want, i)
		}
	}
	slices.Sort(want)
	for _, o := range sub {
		got = append(got, index(o))
	}
	if !slices.Equal(got, want) {
		t.Errorf("subset %v, want %v", got, want)
	}
	for j := range lo {
		l, h := 1.0, 0.0
		for _, o := range byDist[:5] {
			l, h = min(l, o.X[j]), max(h, o.X[j])
		}
		if lo[j] != l || hi[j] != h {
			t.Errorf("box [%v, %v] on coordinate %d, want [%v, %v]", lo[j], hi[j], j, l, h)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	m, err := g.Fit(sp, obs, rng)
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() != 10 {
		t.Errorf("the GP on 60 observations holds %d, want 10", m.Len())
	}
	h := &sampler.History{Space: sp, Seed: 1, Trials: len(obs), Observed: obs}
	u, err := g.Suggest(context.Background(), h, rng)
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range u {
		if v < lo[j] || v > hi[j] {
			t.Errorf("suggestion %v outside the box [%v, %v]", u, lo, hi)
			break
		}
	}
	g.Subset = 50
	if err := g.check(); err == nil {
		t.Error("subset 50 > exact_limit 40: no error")
	}
}
