package mixed_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/problems/mixed"
)

func Example() {
	p, err := mixed.Get("func2c")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Space().Names(), p.Levels())

	// h = (cam, cam) with x near the minimiser, without noise (nil rng).
	a := p.Assignment([]int{1, 1}, []float64{-0.0449, 0.3563})
	f, _ := p.Evaluate(a, nil)
	fopt, _ := p.Optimum()
	fmt.Printf("f(%s, %s, %.4f, %.4f) = %.5f; f* = %.5f\n", a["h1"], a["h2"], a["x1"], a["x2"], f, fopt)

	// With an rng, the reference code's 1e-6·U(0,1) noise is added.
	g, _ := p.Evaluate(a, rand.New(rand.NewPCG(1, 2)))
	fmt.Println("noise below 1e-6:", g-f >= 0 && g-f < 1e-6)

	// Pest Control is deterministic.
	pest, _ := mixed.Get("pest")
	none := pest.Assignment(make([]int, 25), nil)
	v1, _ := pest.Evaluate(none, nil)
	v2, _ := pest.Evaluate(none, nil)
	fmt.Printf("pest without pesticide: %.2f (again %.2f)\n", v1, v2)
	// Output:
	// [h1 h2 x1 x2] [3 5]
	// f(cam, cam, -0.0449, 0.3563) = -0.20633; f* = -0.20633
	// noise below 1e-6: true
	// pest without pesticide: 23.62 (again 23.62)
}
