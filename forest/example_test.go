package forest_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/forest"
)

// A forest fitted on a noisy 1-D function predicts a mean and a σ; the
// lower confidence bound μ − 1.96σ is SVM-CBO_RF's phase-2 acquisition
// (spec constrained-autotinyml §3.4).
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	var X [][]float64
	var y []float64
	for i := range 40 {
		x := float64(i) / 39
		X = append(X, []float64{x})
		y = append(y, math.Sin(6*x)+0.1*rng.NormFloat64())
	}
	f, err := forest.Fit(X, y, forest.Settings{}, rand.New(rand.NewPCG(42, 0)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range []float64{0.25, 0.8} {
		mean, std := f.Predict([]float64{x})
		fmt.Printf("x=%.2f sin(6x)=%+.2f mean=%+.2f std=%.2f lcb=%+.2f\n", x, math.Sin(6*x), mean, std, mean-1.96*std)
	}
	// Output:
	// x=0.25 sin(6x)=+1.00 mean=+0.97 std=0.05 lcb=+0.87
	// x=0.80 sin(6x)=-1.00 mean=-0.96 std=0.04 lcb=-1.04
}
