package constrained_test

import (
	"fmt"
	"log"

	"github.com/boaopt/boa/problems/constrained"
)

func Example() {
	p, err := constrained.Get("mishra_bird_c")
	if err != nil {
		log.Fatal(err)
	}
	f, _ := p.Optimum()
	fmt.Printf("%s: f* = %.4f at %.4f\n", p.Name(), f, p.Minimizer())

	// Inside the disc the optimiser sees the objective ...
	r := p.Eval([]float64{-5, -5})
	loss, ok := r.Loss()
	fmt.Printf("feasible %v, loss %.4f, %v\n", ok, loss, r.Constraints[0])

	// ... outside it only learns that the point is infeasible, though the
	// objective is still computed for tests and plots.
	r = p.Eval([]float64{0, 0})
	loss, ok = r.Loss()
	fmt.Printf("feasible %v, loss %v, %v, F = %.4f\n", ok, loss, r.Constraints[0], r.F)

	lit, _ := constrained.Get("rosenbrock_c_literal")
	one := []float64{1, 1}
	fmt.Printf("%s (literal %v): f(1, 1) = %g, feasible %v\n", lit.Name(), lit.Literal(), lit.Objective(one), lit.Feasible(one))
	// Output:
	// mishra_bird_c: f* = -106.7645 at [-3.1302 -1.5821]
	// feasible true, loss 1.8861, disc = 0 < 25
	// feasible false, loss NaN, disc = 50 < 25, F = 2.7183
	// rosenbrock_c_literal (literal true): f(1, 1) = 400, feasible false
}
