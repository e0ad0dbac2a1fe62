package kernel_test

import (
	"fmt"

	"github.com/boaopt/boa/kernel"
)

func ExampleNewStationary() {
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	k.SetLengthscales([]float64{0.5, 1})

	x, y := []float64{0, 0}, []float64{0.5, 0}
	grad := make([]float64, k.NumParams())
	v := k.ParamGrad(x, y, grad)
	fmt.Printf("k = %.4f\n", v)
	fmt.Printf("dk/dlog(l) = [%.4f %.4f], dk/dlog(s2) = %.4f\n", grad[0], grad[1], grad[2])

	K := kernel.Matrix(k, [][]float64{x, y})
	fmt.Printf("K = [%.4f %.4f; %.4f %.4f]\n", K.At(0, 0), K.At(0, 1), K.At(1, 0), K.At(1, 1))
	// Output:
	// k = 0.5240
	// dk/dlog(l) = [0.5764 0.0000], dk/dlog(s2) = 0.5240
	// K = [1.0000 0.5240; 0.5240 1.0000]
}
