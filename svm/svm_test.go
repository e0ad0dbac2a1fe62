package svm

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// Hand-solved problems (spec constrained-autotinyml §4.1: "agreement with a
// reference solution of a 4-point problem solved by hand"), all with γ = 1.
//
// For a convex dual with Q positive definite (RBF, distinct points) the
// solution is unique and is characterised by the KKT conditions on
// y_i d(x_i): = 1 where 0 < α_i < C, ≥ 1 where α_i = 0, ≤ 1 where α_i = C.
// So a guessed (α, b) that satisfies yᵀα = 0, the box and these conditions is
// the solution.
//
// Triangle: x_0 = (0, 0) with y = −1; x_1..x_3 on the unit circle at 0°,
// 120°, 240° with y = +1. Let p = k(x_0, x_t) = e^{−1} and
// q = k(x_s, x_t) = e^{−3} (the positives are √3 apart). By the threefold
// symmetry the positives share α_t = a; yᵀα = 0 gives α_0 = 3a.
//
//	d(x_0) = −3a + 3ap + b,       d(x_t) = −3ap + a(1 + 2q) + b.
//
// All free (C large): d(x_0) = −1 and d(x_t) = 1; subtracting,
// a(4 + 2q − 6p) = 2, so a = 1/(2 + q − 3p) ≈ 1.0569 and
// b = −1 + 3a(1 − p) ≈ 1.0043; free needs 3a < C, true for C = 10.
//
// C = 1 (< 3a): α_0 = C = 1 at its bound and a = 1/3, still free, so
// d(x_t) = 1 gives b = 1 + p − (1 + 2q)/3 ≈ 1.0014. Check x_0:
// y_0 d(x_0) = 1 − p − b = (1 + 2q)/3 − 2p ≈ −0.369 ≤ 1, as a bound α needs
// (x_0 is misclassified: d(x_0) = 2p − (1 + 2q)/3 ≈ 0.369 > 0).
//
// XOR square: (0,0), (1,1) with y = +1 and (0,1), (1,0) with y = −1. Each
// point has the two others at distance 1 in the other class and one at √2 in
// its own, and reflecting x_1 → 1 − x_1 swaps the classes, so all α_t = a and
// b = 0. With s = 1 − 2e^{−1} + e^{−2} = (1 − e^{−1})² ≈ 0.3996,
// y_t d(x_t) = a·s.
//
// All free (C = 10): a·s = 1, a = 1/s ≈ 2.5026 < C.
// C = 1 (< 1/s): every α_t = C = 1 at its bound and y_t d(x_t) = s ≤ 1. No
// α is free, so b is the midpoint of the KKT interval: all ∇f_t = s − 1, the
// positives at C give the lower end y∇f = s − 1, the negatives at C the
// upper end 1 − s, and b = −(midpoint) = 0.
func TestHandSolved(t *testing.T) {
	p, q := math.Exp(-1), math.Exp(-3)
	s := (1 - p) * (1 - p)
	h := math.Sqrt(3) / 2
	tri := [][]float64{{0, 0}, {1, 0}, {-0.5, h}, {-0.5, -h}}
	triY := []int{-1, 1, 1, 1}
	xor := [][]float64{{0, 0}, {1, 1}, {0, 1}, {1, 0}}
	xorY := []int{1, 1, -1, -1}
	aTri := 1 / (2 + q - 3*p)

	type probe struct {
		x []float64
		d float64
	}
	for _, tc := range []struct {
		name   string
		X      [][]float64
		y      []int
		C      float64
		alpha  []float64
		b      float64
		probes []probe // decision values derived above
	}{
		{"triangle all free", tri, triY, 10,
			[]float64{3 * aTri, aTri, aTri, aTri}, -1 + 3*aTri*(1-p),
			[]probe{{tri[0], -1}, {tri[1], 1}, {tri[3], 1}, {[]float64{0, 30}, -1 + 3*aTri*(1-p)}}},
		{"triangle negative at bound", tri, triY, 1,
			[]float64{1, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1 + p - (1+2*q)/3,
			[]probe{{tri[0], 2*p - (1+2*q)/3}, {tri[2], 1}, {[]float64{30, 0}, 1 + p - (1+2*q)/3}}},
		{"xor all free", xor, xorY, 10,
			[]float64{1 / s, 1 / s, 1 / s, 1 / s}, 0,
			[]probe{{xor[0], 1}, {xor[2], -1}, {[]float64{0.5, 0.5}, 0}}},
		{"xor all at bound", xor, xorY, 1,
			[]float64{1, 1, 1, 1}, 0,
			[]probe{{xor[1], s}, {xor[3], -s}, {[]float64{0.5, 0.5}, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.X, tc.y, Settings{C: tc.C, Gamma: 1, Tol: 1e-10})
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged() {
				t.Fatalf("not converged after %d iterations", m.Iterations())
			}
			for i, a := range tc.alpha {
				if math.Abs(m.alpha[i]-a) > 1e-6 {
					t.Errorf("α_%d = %.9f, want %.9f", i, m.alpha[i], a)
				}
			}
			if math.Abs(m.Intercept()-tc.b) > 1e-6 {
				t.Errorf("b = %.9f, want %.9f", m.Intercept(), tc.b)
			}
			for _, pr := range tc.probes {
				if d := m.Decision(pr.x); math.Abs(d-pr.d) > 1e-6 {
					t.Errorf("d(%v) = %.9f, want %.9f", pr.x, d, pr.d)
				}
			}
			if len(m.SupportVectors()) != 4 {
				t.Errorf("%d support vectors, want 4", len(m.SupportVectors()))
			}
		})
	}
}

// blobs draws n points uniformly in [0,1]² and labels them by f, dropping
// points within gap of the boundary f = 0.
func blobs(rng *rand.Rand, n int, gap float64, f func(x []float64) float64) ([][]float64, []int) {
	var X [][]float64
	var y []int
	for len(X) < n {
		x := []float64{rng.Float64(), rng.Float64()}
		v := f(x)
		if math.Abs(v) < gap {
			continue
		}
		X = append(X, x)
		if v > 0 {
			y = append(y, 1)
		} else {
			y = append(y, -1)
		}
	}
	return X, y
}

// TestSeparable: separable 2-D data give zero training error (spec
// constrained-autotinyml §4.1 tests).
func TestSeparable(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func(x []float64) float64
		gap  float64
		set  Settings
	}{
		{"line, defaults", func(x []float64) float64 { return x[0] + x[1] - 1 }, 0.15, Settings{}},
		{"disc, C=100", func(x []float64) float64 {
			return 0.35*0.35 - (x[0]-0.5)*(x[0]-0.5) - (x[1]-0.5)*(x[1]-0.5)
		}, 0.03, Settings{C: 100}},
		{"xor quadrants, C=100 γ=10", func(x []float64) float64 { return (x[0] - 0.5) * (x[1] - 0.5) }, 0.02, Settings{C: 100, Gamma: 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			X, y := blobs(rand.New(rand.NewPCG(1, 2)), 80, tc.gap, tc.f)
			m, err := Fit(X, y, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged() {
				t.Fatal("not converged")
			}
			for i, x := range X {
				if got := m.Predict(x); got != y[i] {
					t.Errorf("point %d %v: predicted %d, label %d (d = %g)", i, x, got, y[i], m.Decision(x))
				}
			}
		})
	}
}

// noisy is a non-separable data set: a curved boundary with 15 % of the labels
// flipped.
func noisy(seed uint64, n int) ([][]float64, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	X, y := blobs(rng, n, 0, func(x []float64) float64 { return 0.8 - x[0]*x[0] - x[1] })
	for i := range y {
		if rng.Float64() < 0.15 {
			y[i] = -y[i]
		}
	}
	return X, y
}

// TestKKT checks the dual constraints and the KKT conditions within the
// stopping tolerance on non-separable data (spec constrained-autotinyml §4.1
// tests): y_i d(x_i) ≥ 1 − ε where α_i = 0, |y_i d(x_i) − 1| ≤ ε where
// 0 < α_i < C, y_i d(x_i) ≤ 1 + ε where α_i = C. The bound is ε itself: b lies
// between min_{I_low}(−y∇f) and max_{I_up}(−y∇f), which the stopping rule
// puts within ε, and y_i d(x_i) − 1 = y_i(b + y_i∇f_i).
func TestKKT(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		n    int
		set  Settings
	}{
		{"defaults", 1, 60, Settings{}},
		{"C=10 γ=5", 2, 100, Settings{C: 10, Gamma: 5}},
		{"C=0.1", 3, 40, Settings{C: 0.1}},
		{"C=1000 γ=50", 4, 120, Settings{C: 1000, Gamma: 50}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			X, y := noisy(tc.seed, tc.n)
			m, err := Fit(X, y, tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Converged() {
				t.Fatal("not converged")
			}
			C, eps := m.Settings().C, m.Settings().Tol
			var sum float64
			var free, bound int
			for i, x := range X {
				a := m.alpha[i]
				sum += a * float64(y[i])
				if a < 0 || a > C {
					t.Errorf("α_%d = %g outside [0, %g]", i, a, C)
				}
				yd := float64(y[i]) * m.Decision(x)
				switch {
				case a == 0:
					if yd < 1-eps-1e-9 {
						t.Errorf("α_%d = 0 but y d = %.6f < 1 − ε", i, yd)
					}
				case a == C:
					bound++
					if yd > 1+eps+1e-9 {
						t.Errorf("α_%d = C but y d = %.6f > 1 + ε", i, yd)
					}
				default:
					free++
					if math.Abs(yd-1) > eps+1e-9 {
						t.Errorf("α_%d = %g free but y d = %.6f", i, a, yd)
					}
				}
			}
			if math.Abs(sum) > 1e-9*float64(len(X))*C {
				t.Errorf("yᵀα = %g, want 0", sum)
			}
			t.Logf("n = %d, %d iterations, %d support vectors (%d free, %d at C), b = %.4f",
				len(X), m.Iterations(), len(m.SupportVectors()), free, bound, m.Intercept())
		})
	}
}

// TestGradient compares Gradient with central finite differences of
// Decision.
func TestGradient(t *testing.T) {
	X, y := noisy(5, 50)
	for _, set := range []Settings{{}, {C: 10, Gamma: 20}} {
		m, err := Fit(X, y, set)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(9, 9))
		grad := make([]float64, 2)
		for range 20 {
			x := []float64{rng.Float64()*1.4 - 0.2, rng.Float64()*1.4 - 0.2}
			d := m.Gradient(x, grad)
			if d != m.Decision(x) {
				t.Errorf("Gradient returned %g, Decision %g", d, m.Decision(x))
			}
			const h = 1e-6
			for k := range x {
				xp := append([]float64(nil), x...)
				xm := append([]float64(nil), x...)
				xp[k] += h
				xm[k] -= h
				fd := (m.Decision(xp) - m.Decision(xm)) / (2 * h)
				if math.Abs(fd-grad[k]) > 1e-6*math.Max(1, math.Abs(fd)) {
					t.Errorf("γ = %g, x = %v: ∂d/∂x_%d = %.9g, finite difference %.9g", m.Settings().Gamma, x, k, grad[k], fd)
				}
			}
		}
	}
}

func TestValidation(t *testing.T) {
	good := [][]float64{{0, 0}, {1, 1}}
	goodY := []int{1, -1}
	for _, tc := range []struct {
		name string
		X    [][]float64
		y    []int
		set  Settings
		want string // substring of the error
	}{
		{"no points", nil, nil, Settings{}, "no training points"},
		{"length mismatch", good, []int{1}, Settings{}, "2 points but 1 labels"},
		{"dimension 0", [][]float64{{}, {}}, goodY, Settings{}, "dimension 0"},
		{"ragged", [][]float64{{0, 0}, {1}}, goodY, Settings{}, "point 1 has dimension 1"},
		{"NaN", [][]float64{{0, math.NaN()}, {1, 1}}, goodY, Settings{}, "coordinate 1 is NaN"},
		{"Inf", [][]float64{{0, 0}, {math.Inf(1), 1}}, goodY, Settings{}, "is +Inf"},
		{"label 0", good, []int{1, 0}, Settings{}, "label 1 is 0"},
		{"label 2", good, []int{2, -1}, Settings{}, "label 0 is 2"},
		{"one class +1", good, []int{1, 1}, Settings{}, "one class"},
		{"one class −1", good, []int{-1, -1}, Settings{}, "one class"},
		{"C < 0", good, goodY, Settings{C: -1}, "Settings.C"},
		{"C NaN", good, goodY, Settings{C: math.NaN()}, "Settings.C"},
		{"C Inf", good, goodY, Settings{C: math.Inf(1)}, "Settings.C"},
		{"Gamma < 0", good, goodY, Settings{Gamma: -0.5}, "Settings.Gamma"},
		{"Tol < 0", good, goodY, Settings{Tol: -1e-3}, "Settings.Tol"},
		{"MaxIter < 0", good, goodY, Settings{MaxIter: -1}, "Settings.MaxIter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Fit(tc.X, tc.y, tc.set)
			if err == nil || m != nil {
				t.Fatalf("Fit = %v, %v; want an error", m, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if strings.HasPrefix(tc.name, "one class") != errors.Is(err, ErrOneClass) {
				t.Errorf("errors.Is(%v, ErrOneClass) = %v", err, errors.Is(err, ErrOneClass))
			}
		})
	}
}

func TestDimensionPanics(t *testing.T) {
	m, err := Fit([][]float64{{0, 0}, {1, 1}}, []int{1, -1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"Decision": func() { m.Decision([]float64{1}) },
		"Gradient": func() { m.Gradient([]float64{1, 2}, make([]float64, 3)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with a wrong dimension did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestDefaults: the zero Settings resolve to spec constrained-autotinyml
// §3.4's C = 1 and γ = 1/(d·Var(X)), and LIBSVM's ε and iteration limit.
func TestDefaults(t *testing.T) {
	X := [][]float64{{0, 0}, {1, 0}, {0, 3}, {1, 3}}
	// The eight coordinates 0,0,1,0,0,3,1,3 have mean 1 and variance 12/8 = 1.5.
	m, err := Fit(X, []int{1, 1, -1, -1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	want := Settings{C: 1, Gamma: 1 / (2 * 1.5), Tol: 1e-3, MaxIter: 10_000_000}
	if got := m.Settings(); got != want {
		t.Errorf("Settings() = %+v, want %+v", got, want)
	}
	if m.Dim() != 2 {
		t.Errorf("Dim() = %d", m.Dim())
	}
	// Identical points with opposite labels: Var(X) = 0 gives γ = 1, as in
	// scikit-learn; a_it = 0 is floored at τ and the fit stays finite.
	m, err = Fit([][]float64{{0.5}, {0.5}}, []int{1, -1}, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if g := m.Settings().Gamma; g != 1 {
		t.Errorf("γ = %g for zero variance, want 1", g)
	}
	if d := m.Decision([]float64{0.5}); math.IsNaN(d) || math.IsInf(d, 0) || !m.Converged() {
		t.Errorf("duplicate points: d = %g, converged %v", d, m.Converged())
	}
}

// TestDeterminism: the same input gives bitwise the same model, and the model
// keeps no reference to the caller's X.
func TestDeterminism(t *testing.T) {
	X, y := noisy(11, 70)
	m1, err := Fit(X, y, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Fit(X, y, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m1, m2) {
		t.Fatal("two fits on the same data differ")
	}
	probe := []float64{0.3, 0.6}
	d := m1.Decision(probe)
	for _, x := range X {
		x[0] += 10
	}
	if got := m1.Decision(probe); got != d {
		t.Errorf("changing X after Fit changed d from %g to %g", d, got)
	}
	sv := m1.SupportVectors()
	sv[0][0] = 99
	coef := m1.DualCoef()
	coef[0] = 99
	if got := m1.Decision(probe); got != d {
		t.Errorf("changing the returned support vectors changed d from %g to %g", d, got)
	}
}

// TestNotConverged: hitting MaxIter returns a usable model flagged as not
// converged.
func TestNotConverged(t *testing.T) {
	X, y := noisy(3, 50)
	m, err := Fit(X, y, Settings{MaxIter: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Converged() || m.Iterations() != 2 {
		t.Errorf("Converged() = %v, Iterations() = %d; want false, 2", m.Converged(), m.Iterations())
	}
	if len(m.SupportVectors()) == 0 || len(m.DualCoef()) != len(m.SupportVectors()) {
		t.Errorf("%d support vectors, %d coefficients", len(m.SupportVectors()), len(m.DualCoef()))
	}
}
