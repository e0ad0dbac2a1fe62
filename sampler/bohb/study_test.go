package bohb_test

import (
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler/internal/epochtoy"
)

// TestBOHBBeatsRandom: with Hyperband over the toy's epochs, bohb's final
// best after 120 trials is below random search's on most seeds and in
// the median.
func TestBOHBBeatsRandom(t *testing.T) {
	epochtoy.BeatsRandom(t, "bohb", pruner.Hyperband{MinResource: 1, MaxResource: 27, ReductionFactor: 3}, 6, 120)
}
