package acq

import (
	"math"
	"testing"
)

// TestClosedForms checks each acquisition against hand-computed values with
// a constant model (μ, σ²) and incumbent y*.
func TestClosedForms(t *testing.T) {
	const (
		phi1 = 0.24197072451914336 // φ(1)
		Phi1 = 0.84134474606854293 // Φ(1)
		phi0 = 0.39894228040143268 // φ(0)
	)
	x := []float64{0.3}
	for _, tc := range []struct {
		name string
		f    Function
		m    constModel
		want float64
	}{
		{"EI z=1", EI{Best: 1}, constModel{0, 1}, Phi1 + phi1},
		{"EI z=1 σ=2 ξ", EI{Best: 3, Xi: 1}, constModel{0, 4}, 2 * (Phi1 + phi1)},
		{"EI z=1 σ=2 ξ=0.5σ", EI{Best: 3, XiRel: 0.5}, constModel{0, 4}, 2 * (Phi1 + phi1)},
		{"LogEI z=1 σ=2 ξ=0.5σ", LogEI{Best: 3, XiRel: 0.5}, constModel{0, 4}, math.Log(2 * (Phi1 + phi1))},
		{"PI z=-1 ξ=σ", PI{Best: 1, XiRel: 1}, constModel{1, 1}, 1 - Phi1},
		{"LogPI z=-1 ξ=σ", LogPI{Best: 1, XiRel: 1}, constModel{1, 1}, math.Log(1 - Phi1)},
		{"EI σ=0 ξ=σ", EI{Best: 2, XiRel: 1}, constModel{0.5, 0}, 1.5},
		{"EI z=0", EI{Best: 0.5}, constModel{0.5, 0.25}, 0.5 * phi0},
		{"EI z=-1", EI{Best: 0}, constModel{1, 1}, phi1 - (1 - Phi1)},
		{"EI σ=0 improving", EI{Best: 2}, constModel{0.5, 0}, 1.5},
		{"EI σ=0 not improving", EI{Best: 0}, constModel{0.5, -1e-18}, 0},
		{"LogEI z=1", LogEI{Best: 1}, constModel{0, 1}, math.Log(Phi1 + phi1)},
		{"LogEI σ=0", LogEI{Best: 2}, constModel{0.5, 0}, math.Log(1.5)},
		{"LogEI σ=0 none", LogEI{Best: 0}, constModel{0.5, 0}, math.Inf(-1)},
		{"PI z=1", PI{Best: 1}, constModel{0, 1}, Phi1},
		{"PI z=-1 ξ", PI{Best: 1, Xi: 1}, constModel{1, 1}, 1 - Phi1},
		{"PI σ=0", PI{Best: 1}, constModel{0, 0}, 1},
		{"LogPI z=1", LogPI{Best: 1}, constModel{0, 1}, math.Log(Phi1)},
		{"LogPI σ=0", LogPI{Best: 0}, constModel{1, 0}, math.Inf(-1)},
		{"LCB", LCB{Kappa: 2}, constModel{0.5, 4}, 3.5},
		{"LCB σ=0", LCB{Kappa: 2}, constModel{0.5, 0}, -0.5},
	} {
		got := tc.f.Eval(tc.m, x, nil)
		grad := []float64{math.NaN()}
		got2 := tc.f.Eval(tc.m, x, grad)
		if got != got2 {
			t.Errorf("%s: value %g without gradient, %g with", tc.name, got, got2)
		}
		if grad[0] != 0 {
			t.Errorf("%s: gradient %g for a constant model, want 0", tc.name, grad[0])
		}
		if math.IsInf(tc.want, -1) && math.IsInf(got, -1) {
			continue
		}
		if math.Abs(got-tc.want) > 1e-15*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s = %.17g, want %.17g", tc.name, got, tc.want)
		}
	}
}

// TestLogEIMatchesEI checks log-EI against log(EI) for z ∈ [−5, 5] and on
// into the tail while EI > 1e-300, and log-PI against log(PI) likewise.
func TestLogEIMatchesEI(t *testing.T) {
	x := []float64{0}
	for _, sd := range []float64{1e-3, 1, 30} {
		m := constModel{mu: 0, v: sd * sd}
		for z := 5.0; z > -40; z -= 0.0137 {
			best := z * sd
			ei := EI{Best: best}.Eval(m, x, nil)
			if ei <= 1e-300 && z < -5 {
				break
			}
			lei := LogEI{Best: best}.Eval(m, x, nil)
			if rel := math.Abs(lei-math.Log(ei)) / math.Max(math.Abs(lei), 1e-300); rel > 1e-10 {
				t.Errorf("σ=%g z=%g: LogEI = %.17g, log(EI) = %.17g (rel %.2g)", sd, z, lei, math.Log(ei), rel)
			}
			// log(PI) itself loses digits as PI → 1; there log Φ(z) =
			// log1p(−Φ(−z)) is the accurate comparison.
			pi := PI{Best: best}.Eval(m, x, nil)
			want := math.Log(pi)
			if z > 0 {
				want = math.Log1p(-PI{Best: -best}.Eval(m, x, nil))
			}
			if pi > 1e-300 {
				lpi := LogPI{Best: best}.Eval(m, x, nil)
				if rel := math.Abs(lpi-want) / math.Max(math.Abs(lpi), 1e-300); rel > 1e-10 {
					t.Errorf("σ=%g z=%g: LogPI = %.17g, log(PI) = %.17g (rel %.2g)", sd, z, lpi, want, rel)
				}
			}
		}
	}
}

// TestLogTailsAcquisitions checks that log-EI and log-PI stay finite,
// increasing in z and with finite gradients far in the tail.
func TestLogTailsAcquisitions(t *testing.T) {
	m := testModel{v0: 1e-4, v1: 0.01}
	x := []float64{0.2, 0.7}
	mu, _ := m.Predict(x)
	for _, f := range []func(best float64) Function{
		func(b float64) Function { return LogEI{Best: b} },
		func(b float64) Function { return LogPI{Best: b} },
	} {
		prev := math.Inf(-1)
		for best := mu - 1e3; best < mu-0.01; best += 0.1 {
			g := make([]float64, 2)
			v := f(best).Eval(m, x, g)
			if math.IsNaN(v) || math.IsInf(v, 0) || v <= prev {
				t.Fatalf("%T at y*−μ = %g: %g after %g", f(best), best-mu, v, prev)
			}
			for _, gi := range g {
				if math.IsNaN(gi) || math.IsInf(gi, 0) {
					t.Fatalf("%T at y*−μ = %g: gradient %v", f(best), best-mu, g)
				}
			}
			prev = v
		}
	}
}
