package kernel_test

import (
	"fmt"

	"github.com/boaopt/boa/kernel"
)

// A CoCaBO kernel on z = [h1, h2, x1, x2]: two categorical variables (their
// 0-based category indices) and two continuous ones, mixed with λ = 0.5.
func ExampleNewMixture() {
	kh := kernel.NewSubset(kernel.NewOverlap([]int{0, 1}), []int{0, 1})
	kx := kernel.NewSubset(kernel.NewStationary(kernel.Matern52, 2, false), []int{2, 3})
	k := kernel.NewMixture(kh, kx, 0.5, true)
	k.SetFixedVariance(1) // as the CoCaBO code

	z1 := []float64{0, 2, 0.1, 0.5}
	z2 := []float64{0, 1, 0.1, 0.5} // one category differs, same x
	fmt.Printf("k_h = %.2f, k_x = %.2f, k = %.3f\n", kh.Eval(z1, z2), kx.Eval(z1, z2), k.Eval(z1, z2))

	grad := make([]float64, k.NumParams())
	k.ParamGrad(z1, z2, grad)
	fmt.Printf("params = %d (log l, log s² of Matérn, λ); dk/dλ = %.3f\n", len(grad), grad[len(grad)-1])
	fmt.Println("bound of λ:", k.Bounds()[len(grad)-1])
	// Output:
	// k_h = 0.50, k_x = 1.00, k = 1.000
	// params = 3 (log l, log s² of Matérn, λ); dk/dλ = -1.000
	// bound of λ: {0 1}
}
