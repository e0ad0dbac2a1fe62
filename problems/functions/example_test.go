package functions_test

import (
	"fmt"
	"log"

	"github.com/boaopt/boa/problems/functions"
)

func Example() {
	f, err := functions.Get("Branin", 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s in %d-D, f* = %.6f\n", f.Name, f.Dim, f.Optimum)

	// Studies work in the unit cube; EvalUnit maps it onto the native box.
	y := f.EvalUnit([]float64{0.5, 0.5})
	fmt.Printf("f(centre) = %.4f, regret %.4f\n", y, f.Regret(y))
	fmt.Printf("f(x*) = %.6f\n", f.Eval(f.Minimizers[1]))

	_, err = functions.Get("branin", 3)
	fmt.Println(err)
	// Output:
	// branin in 2-D, f* = 0.397887
	// f(centre) = 24.1300, regret 23.7321
	// f(x*) = 0.397887
	// functions: unsupported dimension: branin is defined only in dimension 2, got 3 (use 0 or 2)
}
