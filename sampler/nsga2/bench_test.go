package nsga2

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/problems/multiobjective"
)

// BenchmarkSuggest500 is one suggestion after 500 trials of ZDT1 (5
// variables), most of its cost rebuilding the 10 generations.
func BenchmarkSuggest500(b *testing.B) {
	f, _ := multiobjective.Get("zdt1", 5)
	h := run(b, New(), f, 500, 1)
	s := New()
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := s.Suggest(context.Background(), h, rng); err != nil {
			b.Fatal(err)
		}
	}
}
