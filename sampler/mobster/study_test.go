package mobster_test

import (
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler/internal/epochtoy"
)

// TestMobsterBeatsRandom: with ASHA over the toy's epochs, mobster's final
// best after 50 trials is below random search's on most seeds and in the
// median.
func TestMobsterBeatsRandom(t *testing.T) {
	epochtoy.BeatsRandom(t, "mobster", pruner.SuccessiveHalving{MinResource: 1, ReductionFactor: 3}, 3, 50)
}
