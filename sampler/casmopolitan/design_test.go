package casmopolitan

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestDesignCountsPendingTrials: CASMOPOLITAN's design, in a parallel
// study, counts the pending trials (samplertest.DesignCases).
func TestDesignCountsPendingTrials(t *testing.T) {
	sp := samplertest.MixedSpace(t, 2, 3, 2)
	c := New()
	c.InitPoints = samplertest.DesignPoints
	for _, tc := range samplertest.DesignCases {
		h := samplertest.ParallelHistory(sp, tc.Done, tc.Pending)
		_, tr, err := c.propose(context.Background(), h, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		if tr.whole != tc.Design {
			t.Errorf("%d completed and %d pending: design point %v, want %v", tc.Done, tc.Pending, tr.whole, tc.Design)
		}
	}
}
