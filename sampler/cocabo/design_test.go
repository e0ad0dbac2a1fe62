package cocabo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestDesignCountsPendingTrials: CoCaBO's design, in a parallel study,
// counts the pending trials (samplertest.DesignCases). Its design point is
// computed with a copy of its rng and compared with what it proposes.
func TestDesignCountsPendingTrials(t *testing.T) {
	sp := samplertest.MixedSpace(t, 2, 3, 2)
	c := &CoCaBO{Lambda: 0.5, InitPoints: samplertest.DesignPoints}
	for _, tc := range samplertest.DesignCases {
		h := samplertest.ParallelHistory(sp, tc.Done, tc.Pending)
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(3, 4)))
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Equal(u, bo.UntriedPoint(h, rand.New(rand.NewPCG(3, 4)))); got != tc.Design {
			t.Errorf("%d completed and %d pending: design point %v, want %v", tc.Done, tc.Pending, got, tc.Design)
		}
	}
}
