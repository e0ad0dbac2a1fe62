package bbob_test

import (
	"fmt"

	"github.com/boaopt/boa/problems/bbob"
)

// Instance 1 of the rotated Rastrigin function (f15) in 5-D: f includes
// FOpt, so f(x) − FOpt is the regret of x.
func Example() {
	f, err := bbob.New(15, 1, 5)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(f, f.Name)
	fmt.Printf("FOpt = %.2f, f(XOpt) − FOpt = %g\n", f.FOpt, f.Eval(f.XOpt)-f.FOpt)
	fmt.Printf("regret at the origin = %.4f\n", f.Eval(make([]float64, 5))-f.FOpt)

	_, err = bbob.New(25, 1, 5)
	fmt.Println(err)
	// Output:
	// bbob_f015_i01_d05 rastrigin_rotated
	// FOpt = 1000.00, f(XOpt) − FOpt = 0
	// regret at the origin = 383.3298
	// bbob: no such function: function id 25 (want 1..24)
}
