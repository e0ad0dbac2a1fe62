package opt_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/opt"
)

func ExampleBoxLBFGS() {
	// (x−2)² + (y+0.5)² on [0,1]²: the unconstrained minimum (2, −0.5) lies
	// outside, so the answer is its projection (1, 0) with both bounds active.
	f := func(x, grad []float64) float64 {
		if grad != nil {
			grad[0], grad[1] = 2*(x[0]-2), 2*(x[1]+0.5)
		}
		return (x[0]-2)*(x[0]-2) + (x[1]+0.5)*(x[1]+0.5)
	}
	r := opt.BoxLBFGS(f, []float64{0.5, 0.5}, []float64{0, 0}, []float64{1, 1}, opt.LBFGSSettings{})
	fmt.Println(r.X, r.F, r.Status)
	// Output:
	// [1 0] 1.25 projected gradient below tolerance
}

func ExampleMaximize() {
	// A multimodal function of one variable on [0,1]; its global maximum is
	// near x = 0.16 (the other peak, near 0.83, is lower).
	f := func(x, grad []float64) float64 {
		if grad != nil {
			grad[0] = 3*math.Pi*math.Cos(3*math.Pi*x[0]) - 2*x[0]
		}
		return math.Sin(3*math.Pi*x[0]) - x[0]*x[0]
	}
	r, err := opt.Maximize(f, opt.Domain{Dim: 1}, opt.MaximizeSettings{Candidates: 64}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("x = %.4f, f = %.4f\n", r.X[0], r.F)
	// Output:
	// x = 0.1630, f = 0.9728
}
