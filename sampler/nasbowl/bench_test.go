package nasbowl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkNASBOWLSuggest is one NAS-BOWL batch of 5 after n evaluations
// of the synthetic NB201 oracle, 4 running: GPWL fitted at H = 1, 2, 3
// and a pool of 200 mutations scored (docs/nasbowl.md).
func BenchmarkNASBOWLSuggest(b *testing.B) {
	for _, n := range []int{50, 150, 400} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			h := synthHistory(n, 1)
			rng := rand.New(rand.NewPCG(5, 5))
			for range 4 {
				h.Pending = append(h.Pending, h.Space.Sample(rng))
			}
			s := New()
			for b.Loop() {
				if _, err := s.SuggestBatch(context.Background(), h, 5, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
