package acq

import (
	"fmt"
	"math"
	"testing"
)

// TestGradients checks every acquisition's input gradient against central
// finite differences at points where z is moderate, in the lower tail, and
// far in the lower tail (log forms only: EI and PI underflow there).
func TestGradients(t *testing.T) {
	m := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	points := [][]float64{{0.1, 0.9, 0.4}, {0.55, 0.2, 0.8}, {0.3, 0.4, 0.5}, {0.95, 0.05, 0.6}}
	type acqCase struct {
		name string
		f    Function
	}
	for _, x := range points {
		mu, v := m.Predict(x)
		sd := math.Sqrt(v)
		cases := []acqCase{{"LCB κ=2", LCB{Kappa: 2}}, {"LCB κ=0", LCB{}}}
		for _, z := range []float64{2, 0.3, -1.5, -3.5, -6} {
			best := mu + z*sd
			cases = append(cases,
				acqCase{fmt.Sprintf("EI z≈%g", z), EI{Best: best}},
				acqCase{fmt.Sprintf("EI ξ z≈%g", z), EI{Best: best + 0.05, Xi: 0.05}},
				acqCase{fmt.Sprintf("EI ξ=0.2σ z≈%g", z), EI{Best: best + 0.2*sd, XiRel: 0.2}},
				acqCase{fmt.Sprintf("PI z≈%g", z), PI{Best: best}},
				acqCase{fmt.Sprintf("PI ξ=0.2σ z≈%g", z), PI{Best: best + 0.2*sd, XiRel: 0.2}},
				acqCase{fmt.Sprintf("LogEI ξ=0.2σ z≈%g", z), LogEI{Best: best + 0.2*sd, XiRel: 0.2}},
				acqCase{fmt.Sprintf("LogPI ξ=0.2σ z≈%g", z), LogPI{Best: best + 0.2*sd, XiRel: 0.2}},
				acqCase{fmt.Sprintf("LogEI z≈%g", z), LogEI{Best: best}},
				acqCase{fmt.Sprintf("LogPI z≈%g", z), LogPI{Best: best}},
			)
		}
		for _, z := range []float64{-30, -300} {
			best := mu + z*sd
			cases = append(cases,
				acqCase{fmt.Sprintf("LogEI z≈%g", z), LogEI{Best: best}},
				acqCase{fmt.Sprintf("LogPI z≈%g", z), LogPI{Best: best}},
			)
		}
		for _, c := range cases {
			checkGradient(t, c.name, c.f, m, x)
		}
	}
}

func checkGradient(t *testing.T, name string, f Function, m Model, x []float64) {
	t.Helper()
	grad := make([]float64, len(x))
	v := f.Eval(m, x, grad)
	if v != f.Eval(m, x, nil) {
		t.Errorf("%s at %v: value depends on whether the gradient is asked for", name, x)
	}
	fd := make([]float64, len(x))
	xx := append([]float64(nil), x...)
	norm := 0.0
	for i := range x {
		h := 1e-6
		xx[i] = x[i] + h
		fp := f.Eval(m, xx, nil)
		xx[i] = x[i] - h
		fm := f.Eval(m, xx, nil)
		xx[i] = x[i]
		fd[i] = (fp - fm) / (2 * h)
		norm = math.Max(norm, math.Abs(grad[i]))
	}
	for i := range x {
		if err := math.Abs(grad[i]-fd[i]) / math.Max(norm, 1e-8); err > 1e-5 {
			t.Errorf("%s at %v: ∂α/∂x%d = %.10g, finite difference %.10g (rel err %.2g)", name, x, i, grad[i], fd[i], err)
		}
	}
}

// TestZeroVarianceGradient checks the σ = 0 limits: EI's gradient is −∂μ/∂x
// when the mean improves on y*, and zero otherwise.
func TestZeroVarianceGradient(t *testing.T) {
	m := testModel{v0: 0, v1: 0}
	x := []float64{0.2, 0.6}
	mu, _ := m.Predict(x)
	dmu := make([]float64, 2)
	m.PredictGrad(x, dmu, make([]float64, 2))
	g := make([]float64, 2)
	if v := (EI{Best: mu + 1}).Eval(m, x, g); math.Abs(v-1) > 1e-15 || g[0] != -dmu[0] || g[1] != -dmu[1] {
		t.Errorf("EI σ=0 improving: %g %v, want 1 %v", v, g, []float64{-dmu[0], -dmu[1]})
	}
	if v := (EI{Best: mu - 1}).Eval(m, x, g); v != 0 || g[0] != 0 || g[1] != 0 {
		t.Errorf("EI σ=0 not improving: %g %v, want 0 and zero gradient", v, g)
	}
	checkGradient(t, "LogEI σ=0", LogEI{Best: mu + 1}, m, x)
	checkGradient(t, "LCB σ=0", LCB{Kappa: 2}, m, x)
}
