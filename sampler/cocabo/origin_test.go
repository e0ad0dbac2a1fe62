package cocabo

import (
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// probs returns the play probabilities of the sequential agents replayed
// from obs with a design of n0.
func probs(t *testing.T, h *sampler.History, obs []sampler.Observation, n0 int) [][]float64 {
	t.Helper()
	l, err := newLayout(h.Space)
	if err != nil {
		t.Fatal(err)
	}
	var p [][]float64
	for _, a := range replayEXP3(l, obs, n0, 40, false) {
		p = append(p, a.Probs())
	}
	return p
}

// TestReplayEXP3ByOrigin: the agents learn from the observations a model
// chose, by their recorded origin, wherever the design points are in the
// history: an extra design point after the first n0 is not a play, and a
// design point still running does not make a model point take its place.
// Without origins the first n0 observations are the design, as before.
func TestReplayEXP3ByOrigin(t *testing.T) {
	c := fastCoCaBO()
	n0 := c.initPoints()
	h := samplertest.ToyHistory(t, c, 20, 3)
	byPlace := func(i int) sampler.Origin {
		if i < n0 {
			return sampler.OriginDesign
		}
		return sampler.OriginModel
	}
	legacy := probs(t, h, h.Observed, n0)
	if got := probs(t, h, samplertest.WithOrigins(h.Observed, byPlace), n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Fatalf("origins as the design rule gives them: %v; without origins %v", got, legacy)
	}

	// An extra design point at the end only enters the reward statistics.
	extra := append(samplertest.WithOrigins(h.Observed, byPlace), sampler.Observation{X: h.Observed[0].X, Y: h.Observed[0].Y, Origin: sampler.OriginDesign})
	if got := probs(t, h, extra, n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Errorf("an extra design point moved the agents: %v, want %v", got, legacy)
	}
	extra[len(extra)-1].Origin = sampler.OriginModel
	if got := probs(t, h, extra, n0); slices.EqualFunc(got, legacy, slices.Equal) {
		t.Error("a model point at the end did not move the agents")
	}
	extra[len(extra)-1].Origin = sampler.OriginUser
	if got := probs(t, h, extra, n0); !slices.EqualFunc(got, legacy, slices.Equal) {
		t.Errorf("an enqueued point moved the agents: %v, want %v", got, legacy)
	}

	// Design trial 3 still running: the n0 − 1 completed design points are
	// the design, and every model point is a play, as a replay by position
	// with a design of n0 − 1 has it.
	running := slices.Delete(samplertest.WithOrigins(h.Observed, byPlace), 3, 4)
	want := probs(t, h, slices.Delete(slices.Clone(h.Observed), 3, 4), n0-1)
	if got := probs(t, h, running, n0); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("design trial running: %v, want %v", got, want)
	}
}

// TestReplayEXP3MByOrigin: a batch of extra design points after the
// design is no play of the batch agents.
func TestReplayEXP3MByOrigin(t *testing.T) {
	c := fastCoCaBO()
	n0 := c.initPoints()
	h := samplertest.ToyHistory(t, c, 20, 3)
	l, err := newLayout(h.Space)
	if err != nil {
		t.Fatal(err)
	}
	batchProbs := func(obs []sampler.Observation) [][]float64 {
		var p [][]float64
		for _, a := range replayEXP3M(l, obs, n0, 2, 40, false) {
			pa, _ := a.Probs()
			p = append(p, pa)
		}
		return p
	}
	obs := samplertest.WithOrigins(h.Observed, func(i int) sampler.Origin {
		if i < n0 {
			return sampler.OriginDesign
		}
		return sampler.OriginModel
	})
	for i := range obs {
		obs[i].Batch = 1 + i/2
	}
	want := batchProbs(obs)
	for _, o := range h.Observed[:2] {
		obs = append(obs, sampler.Observation{X: o.X, Y: o.Y, Batch: 11, Origin: sampler.OriginDesign})
	}
	if got := batchProbs(obs); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("a batch of extra design points moved the agents: %v, want %v", got, want)
	}
	obs[len(obs)-1].Origin, obs[len(obs)-2].Origin = sampler.OriginModel, sampler.OriginModel
	if got := batchProbs(obs); slices.EqualFunc(got, want, slices.Equal) {
		t.Error("a batch of model points did not move the agents")
	}
}
