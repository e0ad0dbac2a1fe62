package acq_test

import (
	"fmt"
	"math"

	"github.com/boaopt/boa/acq"
)

// bowl is a stand-in surrogate: mean (x−0.3)², variance growing away from 0.5.
type bowl struct{}

func (bowl) Predict(x []float64) (float64, float64) {
	return bowl{}.PredictGrad(x, make([]float64, 1), make([]float64, 1))
}

func (bowl) PredictGrad(x, dmean, dvar []float64) (float64, float64) {
	d := x[0] - 0.3
	dmean[0], dvar[0] = 2*d, 0.2*(x[0]-0.5)
	return d * d, 0.01 + 0.1*(x[0]-0.5)*(x[0]-0.5)
}

func Example() {
	m := bowl{}
	best := 0.05 // the lowest observed value
	grad := make([]float64, 1)
	for _, x := range []float64{0.3, 0.9} {
		ei := acq.EI{Best: best}.Eval(m, []float64{x}, nil)
		logEI := acq.LogEI{Best: best}.Eval(m, []float64{x}, grad)
		fmt.Printf("x=%.1f EI=%.5f log-EI=%.4f (exp %.5f) ∂log-EI/∂x=%.3f\n", x, ei, logEI, math.Exp(logEI), grad[0])
	}
	// Far from the data EI underflows, log-EI does not.
	fmt.Printf("EI=%g log-EI=%.2f\n", acq.EI{Best: -10}.Eval(m, []float64{0.3}, nil), acq.LogEI{Best: -10}.Eval(m, []float64{0.3}, nil))
	// Output:
	// x=0.3 EI=0.07636 log-EI=-2.5723 (exp 0.07636) ∂log-EI/∂x=-0.808
	// x=0.9 EI=0.00168 log-EI=-6.3885 (exp 0.00168) ∂log-EI/∂x=-10.193
	// EI=0 log-EI=-3583.36
}
