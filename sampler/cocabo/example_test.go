package cocabo_test

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/space"
)

// ExampleCoCaBO minimises a function of one categorical and one continuous
// parameter with CoCaBO-0.5, then asks for a batch of 3 points.
func ExampleCoCaBO() {
	sp := space.MustNew(
		space.Param{Name: "optimizer", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
		space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1},
	)
	f := func(a space.Assignment) float64 {
		lr := a["lr"].(float64)
		return map[string]float64{"sgd": 1, "adam": 0, "rmsprop": 0.5}[a["optimizer"].(string)] + (lr-0.3)*(lr-0.3)
	}
	c := cocabo.NewFixed(0.5)
	c.InitPoints = 6 // the default is 24 [000 §5.5]
	h := &sampler.History{Space: sp, Seed: 1}
	best, bestY := space.Assignment(nil), 0.0
	for i := range 25 {
		h.Trials = i
		u, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i))))
		if err != nil {
			panic(err)
		}
		a := sp.Decode(u)
		y := f(a)
		if best == nil || y < bestY {
			best, bestY = a, y
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
	}
	fmt.Println("best optimizer:", best["optimizer"])
	batch, err := c.SuggestBatch(context.Background(), h, 3, rand.New(rand.NewPCG(1, 99)))
	fmt.Println("batch:", len(batch), "points", err)
	// Output:
	// best optimizer: adam
	// batch: 3 points <nil>
}
