package acq

import (
	"fmt"
	"math"
	"testing"
)

// TestHardPenaltyZerosBusyPoints checks HLP's property (iii) (spec §8.4):
// the penalised acquisition is exactly 0 at every busy point and positive
// elsewhere, while LP leaves the busy point a positive value.
func TestHardPenaltyZerosBusyPoints(t *testing.T) {
	m := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	busy := [][]float64{{0.2, 0.3, 0.4}, {0.7, 0.6, 0.1}}
	hard, local := Penalised{Base: LCB{Kappa: 2}, Positivity: Softplus{}}, Penalised{Base: LCB{Kappa: 2}, Positivity: Softplus{}}
	for _, b := range busy {
		mu, v := m.Predict(b)
		hard.Penalties = append(hard.Penalties, NewHardPenalty(b, mu, math.Sqrt(v), -0.5, 3, 1, -5))
		local.Penalties = append(local.Penalties, NewLocalPenalty(b, mu, math.Sqrt(v), -0.5, 3))
	}
	for _, b := range busy {
		if v := hard.Eval(m, b, nil); v != 0 {
			t.Errorf("HLP at busy point %v: %v, want exactly 0", b, v)
		}
		grad := []float64{9, 9, 9}
		if v := hard.Eval(m, b, grad); v != 0 || grad[0] != 0 || grad[1] != 0 || grad[2] != 0 {
			t.Errorf("HLP at busy point %v with gradient: %v %v, want 0 and a zero gradient", b, v, grad)
		}
		if v := local.Eval(m, b, nil); !(v > 0) {
			t.Errorf("LP at busy point %v: %v, want > 0 (Φ(−r/s))", b, v)
		}
	}
	for _, x := range [][]float64{{0.21, 0.3, 0.4}, {0.5, 0.5, 0.5}, {0.9, 0.9, 0.9}} {
		if v := hard.Eval(m, x, nil); !(v > 0) {
			t.Errorf("HLP at %v away from the busy points: %v, want > 0", x, v)
		}
	}
}

// TestHardPenaltyRadius checks R_j = |μ(x_j) − M̂|/L̂ + γσ(x_j)/L̂ (spec
// §8.4), with the absolute value for a mean below M̂ (spec §3.3 Decision),
// and the floor for a zero radius.
func TestHardPenaltyRadius(t *testing.T) {
	c := []float64{0.5}
	for _, tc := range []struct{ mean, sd, best, l, gamma, want float64 }{
		{mean: 2, sd: 0.5, best: 1, l: 4, gamma: 1, want: (1 + 0.5) / 4},
		{mean: 0.2, sd: 0.1, best: 1, l: 2, gamma: 1.5, want: (0.8 + 0.15) / 2},
		{mean: 1, sd: 0, best: 1, l: 2, gamma: 1, want: radiusFloor},
	} {
		if got := NewHardPenalty(c, tc.mean, tc.sd, tc.best, tc.l, tc.gamma, -5).Radius; math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("%+v: R = %v, want %v", tc, got, tc.want)
		}
	}
	lp := NewLocalPenalty(c, 0.2, 0.1, 1, 2)
	if math.Abs(lp.Radius-0.4) > 1e-15 || math.Abs(lp.Scale-0.05) > 1e-15 {
		t.Errorf("LP r, s = %v, %v, want 0.4, 0.05", lp.Radius, lp.Scale)
	}
}

// TestSmoothHardPenaltyNearHard checks that the smooth HLP with p = −5
// differs from min{ρ, 1} by at most 1 − 2^{−1/5} ≈ 0.129, attained at
// ρ = 1, and by little away from the ball's boundary (spec §8.4).
func TestSmoothHardPenaltyNearHard(t *testing.T) {
	p := HardPenalty{Center: []float64{0}, Radius: 1, P: -5}
	bound := 1 - math.Pow(2, -0.2)
	worst, worstRho := 0.0, 0.0
	for i := 1; i <= 4000; i++ {
		rho := float64(i) / 1000
		diff := math.Min(rho, 1) - math.Exp(p.LogEval([]float64{rho}, nil))
		if diff < -1e-15 || diff > bound+1e-12 {
			t.Fatalf("ρ = %v: min{ρ,1} − φ̂ = %v, want in [0, %v]", rho, diff, bound)
		}
		if diff > worst {
			worst, worstRho = diff, rho
		}
		if (rho <= 0.3 || rho >= 3) && diff > 2e-3 {
			t.Errorf("ρ = %v: difference %v away from the boundary, want < 2e-3", rho, diff)
		}
	}
	if math.Abs(worst-bound) > 1e-9 || worstRho != 1 {
		t.Errorf("largest difference %v at ρ = %v, want %v at ρ = 1", worst, worstRho, bound)
	}
	// The two branches of the stable form give the same value at ρ far from 1.
	for _, rho := range []float64{1e-80, 1e-5, 1e5, 1e80} {
		want := math.Log(math.Min(rho, 1))
		if got := p.LogEval([]float64{rho}, nil); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("log φ̂(ρ = %g) = %v, want about %v", rho, got, want)
		}
	}
}

// TestPenalisedGradients checks the gradient of the penalised acquisition
// against central differences, for both penalisers and both positivity
// transforms.
func TestPenalisedGradients(t *testing.T) {
	m := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	busy := [][]float64{{0.2, 0.3, 0.4}, {0.6, 0.5, 0.5}}
	pens := map[string]func(b []float64, mu, sd float64) Penalty{
		"HLP": func(b []float64, mu, sd float64) Penalty { return NewHardPenalty(b, mu, sd, -0.5, 3, 1, -5) },
		"LP":  func(b []float64, mu, sd float64) Penalty { return NewLocalPenalty(b, mu, sd, -0.5, 3) },
	}
	for pname, mk := range pens {
		for gname, g := range map[string]Positivity{"softplus": Softplus{}, "offset": Offset{Min: -3}} {
			af := Penalised{Base: LCB{Kappa: 2}, Positivity: g}
			for _, b := range busy {
				mu, v := m.Predict(b)
				af.Penalties = append(af.Penalties, mk(b, mu, math.Sqrt(v)))
			}
			for _, x := range [][]float64{{0.25, 0.35, 0.45}, {0.9, 0.1, 0.7}, {0.55, 0.5, 0.45}} {
				name := fmt.Sprintf("%s %s at %v", pname, gname, x)
				grad := make([]float64, 3)
				af.Eval(m, x, grad)
				for i := range x {
					const h = 1e-6
					xp := append([]float64(nil), x...)
					xp[i] += h
					fp := af.Eval(m, xp, nil)
					xp[i] -= 2 * h
					fm := af.Eval(m, xp, nil)
					if fd := (fp - fm) / (2 * h); math.Abs(fd-grad[i]) > 1e-6*math.Max(1, math.Abs(fd)) {
						t.Errorf("%s: ∂/∂x%d analytic %v, fd %v", name, i, grad[i], fd)
					}
				}
			}
		}
	}
}

// TestPositivity checks softplus against log(1 + e^α) and the offset's
// clamp.
func TestPositivity(t *testing.T) {
	for _, a := range []float64{-700, -30, -1, 0, 1, 30, 800} {
		v, dv := Softplus{}.Apply(a)
		want := math.Log1p(math.Exp(a))
		if a > 30 {
			want = a
		}
		if !(v > 0) || math.Abs(v-want) > 1e-12*math.Max(1, want) || math.Abs(dv-1/(1+math.Exp(-a))) > 1e-15 {
			t.Errorf("softplus(%v) = %v, %v; want %v", a, v, dv, want)
		}
	}
	if v, dv := (Offset{Min: 2}).Apply(1); v != 1e-12 || dv != 0 {
		t.Errorf("offset below the minimum: %v %v, want the clamp 1e-12 and 0", v, dv)
	}
	if v, dv := (Offset{Min: 2}).Apply(3); math.Abs(v-1.001) > 1e-15 || dv != 1 {
		t.Errorf("offset: %v %v, want 1.001 and 1", v, dv)
	}
}
