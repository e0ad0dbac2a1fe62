package qmc_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/qmc"
)

func ExampleSobolPoints() {
	// Unscrambled: the classic sequence.
	for _, p := range qmc.SobolPoints(4, 2, nil) {
		fmt.Println(p)
	}
	// Scrambled: a random digital shift from a seeded source.
	rng := rand.New(rand.NewPCG(1, 2))
	pts := qmc.SobolPoints(1024, 5, rng)
	fmt.Println(len(pts), len(pts[0]))
	// Output:
	// [0.5 0.5]
	// [0.75 0.25]
	// [0.25 0.75]
	// [0.375 0.375]
	// 1024 5
}

func ExampleLatinHypercube() {
	rng := rand.New(rand.NewPCG(1, 2))
	pts := qmc.LatinHypercube(5, 2, rng, 0) // best of 100 designs
	for _, p := range pts {
		fmt.Println(int(p[0]*5), int(p[1]*5)) // the strata, one point in each
	}
}
