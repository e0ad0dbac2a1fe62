package peers_test

import (
	"context"
	"fmt"
	"log"
	"math"
	"slices"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/space"
)

// A peer optimises the same space as boa's samplers through Ask and Tell.
func Example() {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5},
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "act", Kind: space.Categorical, Choices: []string{"relu", "tanh"}},
	)
	f := func(a space.Assignment) float64 {
		v := math.Pow(a["x"].(float64)-1, 2) + math.Pow(math.Log10(a["lr"].(float64))+2, 2)
		if a["act"] == "tanh" {
			v += 0.5
		}
		return v
	}

	ctx := context.Background()
	s, err := peers.New(ctx, "goptuna-cmaes", sp, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	best := math.Inf(1)
	for range 60 {
		a, err := s.Ask(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		v := f(a)
		best = min(best, v)
		if err := s.Tell(ctx, v); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println("best below 0.1:", best < 0.1)
	// Output: best below 0.1: true
}

// Available says whether a peer can run here and, if not, how to install it.
func ExampleAvailable() {
	var runnable []string
	for _, name := range peers.Names() {
		if ok, reason := peers.Available(name); !ok {
			log.Printf("skipping %s: %s", name, reason)
			continue
		}
		runnable = append(runnable, name)
	}
	fmt.Println(slices.Contains(runnable, "goptuna-tpe"), slices.Contains(runnable, "goptuna-cmaes"))
	// Output: true true
}
