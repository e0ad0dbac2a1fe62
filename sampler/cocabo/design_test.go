package cocabo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestDesignCountsPendingTrials: in a parallel study the designs of CoCaBO
// and CASMOPOLITAN end once the completed and the pending trials make n
// together (the pending ones are design points still running), not when n
// have completed, which gave w workers w − 1 design points too many; with
// fewer than half of them completed the model has too little to fit, so
// the design goes on however many are pending. CoCaBO's design point is
// computed with a copy of its rng and compared with what it proposes.
func TestDesignCountsPendingTrials(t *testing.T) {
	sp := samplertest.MixedSpace(t, 2, 3, 2)
	const n = 8
	history := func(done, pending int) *sampler.History {
		rng := rand.New(rand.NewPCG(7, 0))
		h := &sampler.History{Space: sp, Trials: done + pending, Seed: 1, Budget: 40}
		for range done {
			u := sp.Sample(rng)
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: samplertest.MixedToy(sp, u)})
		}
		for range pending {
			h.Pending = append(h.Pending, sp.Sample(rng))
		}
		return h
	}
	c := &CoCaBO{Lambda: 0.5, InitPoints: n}
	for _, tc := range []struct {
		done, pending int
		design        bool
	}{
		{n - 3, 2, true},   // 7 of 8: one design point left
		{n - 3, 3, false},  // the design is complete once the pending ones are in
		{n, 0, false},      // sequential: as before
		{n/2 - 1, n, true}, // too few completed to fit
		{n / 2, n / 2, false},
	} {
		h := history(tc.done, tc.pending)
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Equal(u, bo.UntriedPoint(h, rand.New(rand.NewPCG(3, 4)))); got != tc.design {
			t.Errorf("cocabo, %d completed and %d pending: design point %v, want %v", tc.done, tc.pending, got, tc.design)
		}
	}
}
