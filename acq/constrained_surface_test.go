package acq

import (
	"fmt"
	"math"
	"testing"
)

// surfaceFunction evaluates a Surface as a Function of no model, for
// checkGradient.
type surfaceFunction struct{ s Surface }

func (f surfaceFunction) Eval(_ Model, x, grad []float64) float64 { return f.s.Eval(x, grad) }

// TestConstrainedSurface: log α + Σ log P_j of a non-negative gain, with
// its gradient against finite differences from P ≈ 1 to P ≈ e^−300;
// EvalBatch equals Eval; without a feasible point the factors alone; a
// gain of zero keeps the factors' slope.
func TestConstrainedSurface(t *testing.T) {
	obj := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	gain := Bind(MES{Minima: []float64{-1.5, -0.8}}, batchOf{obj})
	x := []float64{0.55, 0.2, 0.8}
	for _, shift := range []float64{-3, 0, 4, 25} {
		feas := []Penalty{Feasible{testModel{shift: shift, v0: 0.01, v1: 0.5}}}
		for _, s := range []ConstrainedSurface{{Base: gain, Feasibility: feas}, {Base: gain, Feasibility: feas, Infeasible: true}} {
			checkGradient(t, fmt.Sprintf("infeasible %v, shift %g", s.Infeasible, shift), surfaceFunction{s}, obj, x)
			want := addLogFeasibility(feas, x, nil)
			if !s.Infeasible {
				want += math.Log(gain.Eval(x, nil))
			}
			if got := s.Eval(x, nil); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("shift %g, infeasible %v: %g, want %g", shift, s.Infeasible, got, want)
			}
			X := [][]float64{x, {0.1, 0.9, 0.4}, {0.7, 0.7, 0.7}}
			out := make([]float64, len(X))
			s.EvalBatch(X, out)
			for i, xi := range X {
				if v := s.Eval(xi, nil); math.Abs(v-out[i]) > 1e-12*math.Abs(v) {
					t.Errorf("EvalBatch %g, Eval %g at %v", out[i], v, xi)
				}
			}
		}
	}
	zero := ConstrainedSurface{Base: Bind(MES{Minima: []float64{-1}}, batchOf{constModel{mu: 0, v: 0}}), Feasibility: []Penalty{Feasible{obj}}}
	grad := make([]float64, 3)
	v := zero.Eval(x, grad)
	pg := make([]float64, 3)
	want := Feasible{obj}.LogEval(x, pg) + math.Log(floorGain)
	if v != want || grad[0] != pg[0] {
		t.Errorf("a zero gain: %g (∂₀ %g), want %g (∂₀ %g)", v, grad[0], want, pg[0])
	}
}
