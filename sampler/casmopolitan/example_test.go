package casmopolitan_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/space"
)

// ExampleCasmopolitan minimises a function of ten binary switches and
// one continuous parameter with CASMOPOLITAN.
func ExampleCasmopolitan() {
	var ps []space.Param
	for i := range 10 {
		ps = append(ps, space.Param{Name: fmt.Sprint("s", i), Kind: space.Bool})
	}
	ps = append(ps, space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1})
	sp := space.MustNew(ps...)
	// One unit per switch that is on, plus a quadratic in lr: the
	// minimum, 0, has every switch off and lr = 0.3.
	f := func(a space.Assignment) float64 {
		v := 0.0
		for i := range 10 {
			if a[fmt.Sprint("s", i)].(bool) {
				v++
			}
		}
		lr := a["lr"].(float64)
		return v + 4*(lr-0.3)*(lr-0.3)
	}
	c := casmopolitan.New()
	c.InitPoints = 10 // the default is 20 (spec §5.7)
	h := &sampler.History{Space: sp, Seed: 1}
	best := 1e300
	for i := range 40 {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i))))
		if err != nil {
			panic(err)
		}
		y := f(sp.Decode(u))
		best = min(best, y)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
	fmt.Printf("best after 40 trials: %.1f\n", best)
	// Output:
	// best after 40 trials: 0.0
}
