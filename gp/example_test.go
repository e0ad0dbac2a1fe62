package gp_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

func Example() {
	// Noisy observations of a 1-D function on the unit interval.
	rng := rand.New(rand.NewPCG(1, 2))
	var X [][]float64
	var y []float64
	for i := 0; i < 20; i++ {
		x := float64(i) / 19
		X = append(X, []float64{x})
		y = append(y, math.Sin(6*x)+0.01*rng.NormFloat64())
	}

	// Fit a Matérn-5/2 GP by maximum likelihood with 10 starts.
	g, err := gp.Fit(X, y, gp.Config{
		Kernel: kernel.NewStationary(kernel.Matern52, 1, true),
		Rand:   rng,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	mean, varF := g.Predict([]float64{0.5})
	fmt.Printf("f(0.5) ≈ %.2f ± %.2f (true %.2f)\n", mean, 2*math.Sqrt(varF+g.NoiseVarY()), math.Sin(3))

	// Condition on a pending evaluation at its predicted mean (Kriging
	// Believer) without refitting: the variance there collapses.
	f, err := g.Fantasize([][]float64{{0.53}}, []float64{mean})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, before := g.Predict([]float64{0.53})
	_, after := f.Predict([]float64{0.53})
	fmt.Println("variance shrinks:", after < before)

	// Output:
	// f(0.5) ≈ 0.14 ± 0.03 (true 0.14)
	// variance shrinks: true
}
