package all_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/sampler/random"
)

// notDesigner is a sampler that does not say how it chose its points.
type notDesigner struct{}

func (notDesigner) Name() string { return "plain" }

func (notDesigner) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	return h.Space.Sample(rng), nil
}

// TestSuggestBatchOrigins: each point of a batch asked one by one has the
// origin its own suggestion had (the pending points before it count), a
// joint batch has one origin, and a sampler that is not a Designer none.
func TestSuggestBatchOrigins(t *testing.T) {
	ctx := context.Background()
	sp := samplertest.MixedSpace(t, 3, 3, 1)
	rngs := func(i int) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(i))) }
	h := &sampler.History{Space: sp, Seed: 1, Trials: 2}
	rng := rand.New(rand.NewPCG(2, 2))
	for range 2 {
		u := sp.Sample(rng)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u), Origin: sampler.OriginDesign})
	}
	casmo := casmopolitan.New()
	casmo.InitPoints = 4
	coca := cocabo.New()
	coca.Candidates, coca.Budget = 300, 40
	coca.InitPoints = 2
	for _, tc := range []struct {
		s    sampler.Sampler
		want []sampler.Origin
	}{
		// 2 completed of 4: design while completed + pending < 4.
		{casmo, []sampler.Origin{sampler.OriginDesign, sampler.OriginDesign, sampler.OriginModel}},
		{coca, []sampler.Origin{sampler.OriginModel, sampler.OriginModel, sampler.OriginModel}},
		{random.Uniform{}, []sampler.Origin{sampler.OriginDesign, sampler.OriginDesign, sampler.OriginDesign}},
		{notDesigner{}, []sampler.Origin{sampler.OriginUnrecorded, sampler.OriginUnrecorded, sampler.OriginUnrecorded}},
	} {
		us, got, err := sampler.SuggestBatch(ctx, tc.s, h, 3, rngs)
		if err != nil || len(us) != 3 || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d points with origins %v, %v; want %v", tc.s.Name(), len(us), got, err, tc.want)
		}
	}
	coca.InitPoints = 3
	if _, got, err := sampler.SuggestBatch(ctx, coca, h, 3, rngs); err != nil || !slices.Equal(got, []sampler.Origin{sampler.OriginDesign, sampler.OriginDesign, sampler.OriginDesign}) {
		t.Errorf("cocabo's joint batch in its design: origins %v, %v; want design for all", got, err)
	}
}
