package mcmc_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/mcmc"
)

// The posterior of a log-scale u under the prior N(0, 1) and a likelihood
// that prefers u near 2 with unit width: the product is N(1, ½), so the
// samples average about 1.
func Example() {
	e := &mcmc.ESS{
		Mean:   []float64{0},
		SD:     []float64{1},
		LogLik: func(u []float64) float64 { return -0.5 * (u[0] - 2) * (u[0] - 2) },
	}
	c, err := e.Start([]float64{0})
	if err != nil {
		panic(err)
	}
	samples := e.Run(c, 300, 5000, 1, rand.New(rand.NewPCG(1, 1)))
	var mean, sq float64
	for _, u := range samples {
		mean += u[0]
		sq += u[0] * u[0]
	}
	mean /= float64(len(samples))
	sd := math.Sqrt(sq/float64(len(samples)) - mean*mean)
	fmt.Printf("mean %.1f, sd %.1f\n", mean, sd)
	// Output: mean 1.0, sd 0.7
}
