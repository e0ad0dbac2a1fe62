package acq

import (
	"fmt"
	"math"
	"testing"
)

// TestConstrainedGradients checks the input gradients of the feasibility
// factor and of the constrained acquisitions against finite differences,
// with the constraint's mean shifted from well inside the feasible region
// (P ≈ 1) to far outside it (P ≈ e^−300, which underflows as a product).
func TestConstrainedGradients(t *testing.T) {
	m := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	x := []float64{0.55, 0.2, 0.8}
	mu, v := m.Predict(x)
	for _, shift := range []float64{-3, 0, 0.5, 4, 25} {
		// The constraint model: the objective's shape moved so that
		// μ_c/σ_c ≈ shift at x.
		c := testModel{shift: 0.1 - mu + shift*math.Sqrt(v), v0: 0.01, v1: 0.5}
		feas := []Penalty{Feasible{c}, Feasible{testModel{shift: -2, v0: 0.02, v1: 0.3}}}
		for _, af := range []Constrained{
			{Base: LogEI{Best: mu - 0.3}, Feasibility: feas},
			{Base: LCB{Kappa: 2}, Positivity: Standardised{Softplus{}, 0.4, 1.7}, Feasibility: feas},
			{Feasibility: feas},
		} {
			checkGradient(t, fmt.Sprintf("%T with μ_c/σ_c ≈ %g", af.Base, shift), af, m, x)
		}
		checkGradient(t, fmt.Sprintf("Feasible μ_c/σ_c ≈ %g", shift), penaltyFunction{Feasible{c}}, m, x)
	}
}

// penaltyFunction evaluates a Penalty's log as a Function, for checkGradient.
type penaltyFunction struct{ p Penalty }

func (f penaltyFunction) Eval(_ Model, x, grad []float64) float64 { return f.p.LogEval(x, grad) }

// TestConstrainedLogIsFiniteWherePoFUnderflows: 30 standard deviations
// inside the infeasible region Φ(−30) ≈ 5e−198 and the product EI·PoF²
// underflows to zero, with no gradient to climb; the log form is the sum
// of the logs and keeps its slope.
func TestConstrainedLogIsFiniteWherePoFUnderflows(t *testing.T) {
	obj := constModel{mu: 0, v: 1}
	c := constModel{mu: 30, v: 1}
	af := Constrained{Base: LogEI{Best: 0}, Feasibility: []Penalty{Feasible{c}, Feasible{c}}}
	got := af.Eval(obj, []float64{0.5}, nil)
	want := math.Log(normPDF(0)) + 2*LogNormCDF(-30)
	if math.IsInf(got, 0) || math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Errorf("log constrained EI = %g, want %g", got, want)
	}
	if p := (EI{}).Eval(obj, []float64{0.5}, nil) * normCDF(-30) * normCDF(-30); p != 0 {
		t.Errorf("EI·PoF² = %g: the product no longer underflows, so this test shows nothing", p)
	}
	if v := (Feasible{constModel{mu: -1, v: 0}}).LogEval([]float64{0}, nil); v != 0 {
		t.Errorf("a certain constraint (σ = 0, μ < 0): log P = %g, want 0", v)
	}
	if v := (Feasible{constModel{mu: 1, v: 0}}).LogEval([]float64{0}, nil); !math.IsInf(v, -1) {
		t.Errorf("a certainly violated constraint (σ = 0, μ > 0): log P = %g, want −Inf", v)
	}
}

// TestConstrainedBatchMatchesEval: the constraint models are asked point by
// point inside EvalBatch, so its values are Eval's.
func TestConstrainedBatchMatchesEval(t *testing.T) {
	obj := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	af := Constrained{Base: LogEI{Best: 0.5}, Feasibility: []Penalty{Feasible{testModel{shift: -1.5, v0: 0.01, v1: 0.5}}}}
	X := [][]float64{{0.1, 0.2}, {0.7, 0.3}, {0.9, 0.95}}
	out := make([]float64, len(X))
	EvalBatch(af, batchOf{obj}, X, out)
	for i, x := range X {
		if v := af.Eval(obj, x, nil); v != out[i] {
			t.Errorf("x = %v: EvalBatch %g, Eval %g", x, out[i], v)
		}
	}
}

// batchOf makes a Model a BatchModel by predicting one point at a time.
type batchOf struct{ Model }

func (b batchOf) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = b.Predict(x)
	}
}
