package acq

import (
	"math/rand/v2"
	"testing"
)

// PredictBatch makes testModel a BatchModel.
func (m testModel) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = m.Predict(x)
	}
}

func TestEvalBatchMatchesEval(t *testing.T) {
	m := testModel{shift: 0.4, v0: 1e-3, v1: 0.8}
	rng := rand.New(rand.NewPCG(5, 6))
	X := make([][]float64, 50)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
	}
	X = append(X, []float64{0.3, 0.4, 0.5}) // the variance peak
	for name, f := range map[string]Function{
		"EI": EI{Best: 0.5, Xi: 0.01}, "LogEI": LogEI{Best: 0.5}, "PI": PI{Best: 0.5},
		"LogPI": LogPI{Best: 0.5}, "LCB": LCB{Kappa: 2},
	} {
		out := make([]float64, len(X))
		EvalBatch(f, m, X, out)
		for i, x := range X {
			if want := f.Eval(m, x, nil); out[i] != want {
				t.Errorf("%s point %d: EvalBatch %v, Eval %v", name, i, out[i], want)
			}
		}
	}
}
