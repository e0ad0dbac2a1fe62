package gpbo

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// TestRecommendMinimisesTheMean: on a noisy quadratic whose minimum lies
// between the observed points, the recommendation is near the true
// minimiser and nearer than the best observation, whose value is a lucky
// draw of the noise [000 §3.3.3; spec §7].
func TestRecommendMinimisesTheMean(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	rng := rand.New(rand.NewPCG(7, 7))
	const xstar = 0.437
	h := &sampler.History{Space: sp}
	for i := range 30 {
		x := (float64(i) + 0.5) / 30
		h.Observed = append(h.Observed, sampler.Observation{X: []float64{x}, Y: 10*(x-xstar)*(x-xstar) + 0.05*rng.NormFloat64()})
	}
	h.Trials = len(h.Observed)
	bestX, bestY := 0.0, math.Inf(1)
	for _, o := range h.Observed {
		if o.Y < bestY {
			bestX, bestY = o.X[0], o.Y
		}
	}
	u, mu, err := New().Recommend(context.Background(), h, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(u[0] - xstar); d > 0.03 || d > math.Abs(bestX-xstar) {
		t.Errorf("recommended x = %.4f (|x − x*| = %.4f), best observed %.4f (%.4f)", u[0], d, bestX, math.Abs(bestX-xstar))
	}
	if math.Abs(mu) > 0.05 || mu <= bestY {
		t.Errorf("predicted μ(x̂) = %.4f; the truth is 0 and the luckiest draw %.4f lies below the mean", mu, bestY)
	}
	if _, _, err := New().Recommend(context.Background(), &sampler.History{Space: sp, Observed: h.Observed[:1]}, rng); err == nil {
		t.Error("a recommendation from one trial")
	}
}
