package gpbo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/transform"
)

// TestTargets: the option maps the observed values the sampler works on
// and leaves the study's history alone; a log of values ≤ 0 is skipped
// rather than failing the suggestion; and gpbo's default fits the values
// as they are.
func TestTargets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	sp, obs := smoothObservations(12, rng)
	h := &sampler.History{Space: sp, Observed: obs, Trials: len(obs)}
	before := slices.Clone(obs)

	g := New()
	if g.targets(h) != h {
		t.Fatal("the default changed the history")
	}
	if err := g.Configure(sampler.Options{"targets": "power"}); err != nil || g.Targets != transform.Power {
		t.Fatalf("Configure(targets: power) = %v, Targets %v", err, g.Targets)
	}
	mapped := g.targets(h)
	y := make([]float64, len(obs))
	for i, o := range obs {
		y[i] = o.Y
	}
	for i, z := range transform.PowerTransform(y) {
		if mapped.Observed[i].Y != z || !slices.Equal(mapped.Observed[i].X, obs[i].X) {
			t.Fatalf("observation %d: %v, want the power transform %v at the same point", i, mapped.Observed[i], z)
		}
	}
	if !slices.EqualFunc(obs, before, func(a, b sampler.Observation) bool { return a.Y == b.Y }) {
		t.Fatal("the study's observations were changed")
	}
	if _, err := g.Suggest(context.Background(), h, rng); err != nil {
		t.Fatal(err)
	}

	g.Targets = transform.Log // the values include negatives: left as they are
	if g.targets(h) != h {
		t.Fatal("log targets of values <= 0 were applied")
	}
	if _, err := g.Suggest(context.Background(), h, rng); err != nil {
		t.Fatal(err)
	}
	if err := New().Configure(sampler.Options{"targets": "square"}); err == nil {
		t.Fatal("an unknown transform was accepted")
	}
}
