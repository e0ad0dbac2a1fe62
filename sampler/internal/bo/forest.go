package bo

import (
	"math"
	"slices"

	"github.com/boaopt/boa/space"
)

// ForestInput is a random forest's input for the encoded point u of sp:
// u, whose coordinates are the parameters' codes ordered as their values
// (spec constrained-autotinyml §2: "RF uses integer codes directly"),
// with NaN, package forest's inactive sentinel, in place of each inactive
// parameter. smac-like and svmcbo-rf share it.
func ForestInput(sp *space.Space, u []float64) []float64 {
	x := slices.Clone(u)
	for i, a := range sp.Active(u) {
		if !a {
			x[i] = math.NaN()
		}
	}
	return x
}
