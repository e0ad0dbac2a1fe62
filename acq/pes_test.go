package acq

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// pesModel is a GP on n random points of [0,1]^d with a smooth target on
// a non-trivial y scale.
func pesModel(t *testing.T, n, d int, noise float64, rng *rand.Rand) *gp.GP {
	t.Helper()
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
		y[i] = 5 + 3*math.Sin(4*X[i][0]) + X[i][d-1]*X[i][d-1]
	}
	k := kernel.NewStationary(kernel.Matern52, d, true)
	ls := make([]float64, d)
	for j := range ls {
		ls[j] = 0.2 + 0.4*rng.Float64()
	}
	k.SetLengthscales(ls)
	g, err := gp.New(X, y, k, noise)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func randPoint(d int, rng *rand.Rand) []float64 {
	x := make([]float64, d)
	for j := range x {
		x[j] = rng.Float64()
	}
	return x
}

// V(β), the variance of a truncated standard normal, lies in (0, 1], is
// continuous where its tail form takes over, tends to 1/β² for β → −∞, and
// V' matches central finite differences.
func TestTruncVar(t *testing.T) {
	for b := -1e5; b < 40; b = nextGamma(b) {
		if v, dv := truncVar(b); !(v > 0 && v <= 1) || !(dv >= 0) || math.IsInf(dv, 0) {
			t.Fatalf("V(%g) = %g, V' = %g", b, v, dv)
		}
	}
	lo, dlo := truncVar(-millsSplit - 1e-12)
	hi, dhi := truncVar(-millsSplit + 1e-12)
	if math.Abs(lo-hi) > 1e-10*hi || math.Abs(dlo-dhi) > 1e-8*dhi {
		t.Errorf("V jumps at β = −4: %.17g vs %.17g, V' %.17g vs %.17g", lo, hi, dlo, dhi)
	}
	for _, tt := range []float64{1e3, 1e5} {
		// V = 1/t² − 6/t⁴ + O(t⁻⁶).
		if v, _ := truncVar(-tt); math.Abs(v*tt*tt-1+6/(tt*tt)) > 1e-9 {
			t.Errorf("V(−%g)·t² = %.15g, want 1 − 6/t²", tt, v*tt*tt)
		}
	}
	for _, b := range []float64{-300, -20, -5, -4.3, -3, -1, 0, 1.5, 4} {
		h := 1e-6 * math.Max(1, math.Abs(b))
		vp, _ := truncVar(b + h)
		vm, _ := truncVar(b - h)
		fd := (vp - vm) / (2 * h)
		if _, dv := truncVar(b); math.Abs(dv-fd) > 1e-5*math.Abs(fd)+1e-13 {
			t.Errorf("V'(%g) = %.10g, finite differences %.10g", b, dv, fd)
		}
	}
}

// v_j is the variance of f(x) given f(x) ≥ f(x*) under the joint posterior:
// checked against 200,000 joint draws of (f(x), f(x*)) from the GP,
// through α with J = 1 and the noise removed.
func TestPESLiteConditionalVariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	g := pesModel(t, 8, 2, 1e-4, rng)
	// β ≈ −0.4, −0.2, 0.8; c²/s_d² ≈ 0.98, 0.47, 0.03 of σ²(x).
	for _, pair := range [][2][]float64{{{0.3, 0.6}, {0.35, 0.5}}, {{0.1, 0.1}, {0.15, 0.2}}, {{0.7, 0.9}, {0.9, 0.6}}} {
		x, xs := pair[0], pair[1]
		s, err := g.Sample([][]float64{x, xs}, 200000, rng)
		if err != nil {
			t.Fatal(err)
		}
		var n, sum, sq float64
		for _, f := range s {
			if f[0] >= f[1] {
				n++
				sum += f[0]
				sq += f[0] * f[0]
			}
		}
		mcVar := sq/n - (sum/n)*(sum/n)
		p := NewPESLite(g, [][]float64{xs})
		p.noise = 0
		_, v := g.Predict(x)
		vj := v * math.Exp(-2*p.Eval(x, nil)) // α = ½log v − ½log v_j
		if math.Abs(vj-mcVar) > 0.02*mcVar {
			t.Errorf("x %v, x* %v: v_j = %.5g, Monte Carlo %.5g (%.0f of 200000 kept)", x, xs, vj, mcVar, n)
		}
	}
}

// PES-lite ≥ 0 at random points of random models with random minimisers,
// including points next to and at a minimiser and at training inputs; α = 0
// at x = x* with J = 1.
func TestPESLiteNonNegative(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	for c := range 20 {
		d := 1 + c%3
		g := pesModel(t, 5+c, d, math.Pow(10, -1-float64(c%6)), rng)
		xs := [][]float64{randPoint(d, rng), randPoint(d, rng), randPoint(d, rng)}
		p := NewPESLite(g, xs)
		pts := [][]float64{append([]float64(nil), xs[0]...)}
		pts[0][0] += 1e-9
		for range 50 {
			pts = append(pts, randPoint(d, rng))
		}
		out := make([]float64, len(pts))
		p.EvalBatch(pts, out)
		for i, v := range out {
			if !(v >= -1e-12) || math.IsInf(v, 0) {
				t.Fatalf("case %d: PES-lite = %v at %v", c, v, pts[i])
			}
		}
		if v := NewPESLite(g, xs[:1]).Eval(xs[0], nil); math.Abs(v) > 1e-12 {
			t.Errorf("case %d: PES-lite at its own minimiser = %v, want 0", c, v)
		}
	}
}

// PES-lite's gradient agrees with central finite differences, and
// EvalBatch with Eval.
func TestPESLiteGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	g := pesModel(t, 12, 3, 1e-3, rng)
	xs := [][]float64{{0.2, 0.5, 0.5}, {0.8, 0.1, 0.3}, {0.45, 0.45, 0.9}}
	p := NewPESLite(g, xs)
	pts := [][]float64{{0.1, 0.9, 0.4}, {0.55, 0.2, 0.8}, {0.22, 0.52, 0.47}, {0.79, 0.12, 0.31}}
	for range 6 {
		pts = append(pts, randPoint(3, rng))
	}
	out := make([]float64, len(pts))
	p.EvalBatch(pts, out)
	grad, fdg := make([]float64, 3), make([]float64, 3)
	for i, x := range pts {
		v := p.Eval(x, grad)
		if e := p.Eval(x, nil); math.Abs(v-e) > 1e-13*(1+math.Abs(e)) || math.Abs(out[i]-e) > 1e-12*(1+math.Abs(e)) {
			t.Errorf("at %v: Eval with gradient %v, without %v, EvalBatch %v", x, v, e, out[i])
		}
		norm := 0.0
		for j := range x {
			const h = 1e-6
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[j] += h
			xm[j] -= h
			fdg[j] = (p.Eval(xp, nil) - p.Eval(xm, nil)) / (2 * h)
			norm = math.Max(norm, math.Abs(grad[j]))
		}
		for j := range x {
			if math.Abs(grad[j]-fdg[j]) > 1e-5*math.Max(norm, 1e-8) {
				t.Errorf("at %v: ∂α/∂x%d = %.10g, finite differences %.10g", x, j, grad[j], fdg[j])
			}
		}
	}
}
