package svm_test

import (
	"fmt"

	"github.com/boaopt/boa/svm"
)

// Example fits the feasible region of a constraint x² + y² < 0.5 from a 5×5
// grid of evaluated points, as phase 1 of SVM-CBO does, and queries it.
func Example() {
	var X [][]float64
	var y []int
	for i := range 5 {
		for j := range 5 {
			x := []float64{-1 + 0.5*float64(i), -1 + 0.5*float64(j)}
			X = append(X, x)
			if x[0]*x[0]+x[1]*x[1] < 0.5 {
				y = append(y, +1) // feasible
			} else {
				y = append(y, -1) // infeasible
			}
		}
	}
	m, err := svm.Fit(X, y, svm.Settings{C: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	errs := 0
	for i, x := range X {
		if m.Predict(x) != y[i] {
			errs++
		}
	}
	fmt.Println("training errors:", errs)
	fmt.Println("(0.1, 0.2) feasible:", m.Predict([]float64{0.1, 0.2}) == 1)
	fmt.Println("(0.9, -0.9) feasible:", m.Predict([]float64{0.9, -0.9}) == 1)

	// The gradient of d points into the feasible region: from (0.6, 0) it
	// points towards the origin.
	grad := make([]float64, 2)
	m.Gradient([]float64{0.6, 0}, grad)
	fmt.Println("∂d/∂x < 0 at (0.6, 0):", grad[0] < 0)
	// Output:
	// training errors: 0
	// (0.1, 0.2) feasible: true
	// (0.9, -0.9) feasible: false
	// ∂d/∂x < 0 at (0.6, 0): true
}
