package acq

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

var _ CrossModel = (*gp.GP)(nil)

// The rule integrates Z^k exactly against N(0, 1) up to degree 2n − 1 = 63
// (E[Z^k] = (k−1)!! for even k, 0 for odd) and not at degree 64.
func TestGaussHermiteMoments(t *testing.T) {
	z, w := kgNodes()
	if len(z) != 32 || !sort.Float64sAreSorted(z) {
		t.Fatalf("nodes %v", z)
	}
	moment := func(k int) (quad, exact float64) {
		exact = 1
		if k%2 == 1 {
			exact = 0
		}
		for j := k - 1; j > 1 && k%2 == 0; j -= 2 {
			exact *= float64(j)
		}
		for i := range z {
			quad += w[i] * math.Pow(z[i], float64(k))
		}
		return quad, exact
	}
	for k := 0; k <= 63; k++ {
		quad, exact := moment(k)
		// An odd moment is compared with the size of its terms, √E[Z^2k].
		_, scale := moment(2 * k)
		if k%2 == 0 {
			scale = exact
		} else {
			scale = math.Sqrt(scale)
		}
		if math.Abs(quad-exact) > 1e-11*scale {
			t.Errorf("E[Z^%d]: quadrature %.17g, exact %.17g (rel. error %.2g)", k, quad, exact, math.Abs(quad-exact)/scale)
		}
	}
	if quad, exact := moment(64); math.Abs(quad-exact) < 1e-11*exact {
		t.Errorf("degree 64 integrated exactly (%g vs %g): the rule has more than 32 nodes' degree", quad, exact)
	}
	// Small rules in closed form: n = 2 → ±1, ½; n = 3 → 0, ±√3, ⅔, ⅙.
	z2, w2 := GaussHermite(2)
	z3, w3 := GaussHermite(3)
	for _, c := range []struct{ got, want float64 }{
		{z2[0], -1}, {z2[1], 1}, {w2[0], 0.5}, {w2[1], 0.5},
		{z3[0], -math.Sqrt(3)}, {z3[1], 0}, {z3[2], math.Sqrt(3)}, {w3[0], 1.0 / 6}, {w3[1], 2.0 / 3},
	} {
		if math.Abs(c.got-c.want) > 1e-15 {
			t.Errorf("small rule: %.17g, want %.17g", c.got, c.want)
		}
	}
}

// exactExpectedMin is E[min_a (mu_a + b_a Z)] in closed form (Frazier et
// al. 2009): the lower envelope of the lines, integrated piece by piece,
// ∫_c^d (μ + bz)φ(z)dz = μ(Φ(d) − Φ(c)) + b(φ(c) − φ(d)).
func exactExpectedMin(mu, b []float64) float64 {
	idx := make([]int, len(mu))
	for i := range idx {
		idx[i] = i
	}
	// Slopes descending (the minimum as z → −∞ first); equal slopes keep
	// only the lowest line.
	slices.SortFunc(idx, func(i, j int) int {
		if b[i] != b[j] {
			if b[i] > b[j] {
				return -1
			}
			return 1
		}
		if mu[i] < mu[j] {
			return -1
		}
		return 1
	})
	var env []int
	var cut []float64 // cut[k]: where env[k] takes over from env[k−1]
	for n, i := range idx {
		if n > 0 && b[i] == b[idx[n-1]] {
			continue
		}
		for len(env) > 0 {
			j := env[len(env)-1]
			c := (mu[i] - mu[j]) / (b[j] - b[i]) // line i below j for z > c
			if len(env) > 1 && c <= cut[len(cut)-1] {
				env, cut = env[:len(env)-1], cut[:len(cut)-1]
				continue
			}
			cut = append(cut, c)
			break
		}
		if len(env) == 0 {
			cut = append(cut, math.Inf(-1))
		}
		env = append(env, i)
	}
	var e float64
	for k, i := range env {
		lo, hi := cut[k], math.Inf(1)
		if k+1 < len(env) {
			hi = cut[k+1]
		}
		e += mu[i]*(normCDF(hi)-normCDF(lo)) + b[i]*(normPDF(lo)-normPDF(hi))
	}
	return e
}

func TestExpectedMinMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		n := 1 + rng.IntN(40)
		mu, b := make([]float64, n), make([]float64, n)
		for i := range mu {
			mu[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		got, want := expectedMin(mu, b), exactExpectedMin(mu, b)
		// The envelope's kinks limit the rule's accuracy (measured: up to
		// 2% of the lines' spread when the slopes are of order 1).
		if math.Abs(got-want) > 3e-2*math.Sqrt(1+dot(b, b)/float64(n)) {
			t.Errorf("trial %d (n=%d): quadrature %.8g, exact %.8g", trial, n, got, want)
		}
	}
	// A single line: E = μ exactly.
	if got := expectedMin([]float64{0.7}, []float64{3}); math.Abs(got-0.7) > 1e-14 {
		t.Errorf("one line: %v", got)
	}
}

func dot(a, b []float64) (s float64) {
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// kgModel is a GP on n random points of [0,1]² with noise variance noise
// (standardised scale) and y = sin(6x₁) + cos(4x₂) + 0.3·ε.
func kgModel(t *testing.T, n int, noise float64, rng *rand.Rand) (*gp.GP, [][]float64) {
	t.Helper()
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		y[i] = math.Sin(6*X[i][0]) + math.Cos(4*X[i][1]) + 0.3*rng.NormFloat64()
	}
	k := kernel.NewStationary(kernel.Matern52, 2, false)
	k.SetLengthscales([]float64{0.3})
	g, err := gp.New(X, y, k, noise)
	if err != nil {
		t.Fatal(err)
	}
	return g, X
}

// KG against brute force: draw y ~ N(μ(x), σ²(x) + σ_n²), refit the
// posterior mean with gp.Fantasize, and average the drop of min_a μ over
// the same set A. The closed-form expectation over that A (the envelope,
// exactExpectedMin) must agree with it within 4 Monte Carlo standard
// errors, which checks b(a); KG's 32-node rule must then be within its
// quadrature error of the closed form (measured: ≤ 7% of KG here).
func TestKGMatchesMonteCarlo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g, X := kgModel(t, 8, 0.05, rng)
	kg := NewKG(X, []float64{0, 0}, []float64{1, 1}, rng)
	pts := kg.fixed()
	for _, x := range [][]float64{{0.5, 0.5}, {0.1, 0.9}, {0.95, 0.05}, {0.3, 0.2}} {
		got := kg.Eval(g, x, nil)
		a := append(slices.Clone(pts), x)
		mu, v := make([]float64, len(a)), make([]float64, len(a))
		g.PredictBatch(a, mu, v)
		best := slices.Min(mu)
		m, vx := g.Predict(x)
		sd := math.Sqrt(vx + g.NoiseVarY())
		b := make([]float64, len(a))
		g.PostCov(a, x, b)
		for i := range b {
			b[i] /= sd
		}
		exact := best - exactExpectedMin(mu, b)
		// The refitted mean is offset + scale·k(a, X ∪ {x})ᵀα with the
		// fantasy model's weights α (zero prior mean); K(A, X ∪ {x}) is
		// computed once, and the first draw checks the formula against
		// PredictBatch.
		k := g.Kernel()
		xs := append(slices.Clone(X), x)
		cross := make([][]float64, len(a))
		for i, p := range a {
			cross[i] = make([]float64, len(xs))
			for j, q := range xs {
				cross[i][j] = k.Eval(p, q)
			}
		}
		off, scale := g.Standardization()
		const draws = 20000
		var sum, sum2 float64
		for n := range draws {
			f, err := g.Fantasize([][]float64{x}, []float64{m + sd*rng.NormFloat64()})
			if err != nil {
				t.Fatal(err)
			}
			w := f.Weights()
			for i := range a {
				mu[i] = off + scale*dot(cross[i], w)
			}
			if n == 0 {
				want := make([]float64, len(a))
				f.PredictBatch(a, want, v)
				for i := range a {
					if math.Abs(mu[i]-want[i]) > 1e-12*scale {
						t.Fatalf("refitted mean %g, PredictBatch %g", mu[i], want[i])
					}
				}
			}
			d := best - slices.Min(mu)
			sum += d
			sum2 += d * d
		}
		mc := sum / draws
		se := math.Sqrt((sum2/draws - mc*mc) / draws)
		t.Logf("x = %v: KG %.6g, closed form %.6g, Monte Carlo %.6g ± %.2g", x, got, exact, mc, se)
		if math.Abs(exact-mc) > 4*se {
			t.Errorf("x = %v: closed-form KG %.6g, Monte Carlo %.6g ± %.2g", x, exact, mc, se)
		}
		if math.Abs(got-exact) > 0.1*exact+1e-5*sd {
			t.Errorf("x = %v: KG %.6g, closed form %.6g", x, got, exact)
		}
		if !(exact > 0) || !(got > 0) {
			t.Errorf("x = %v: KG %g, closed form %g, want > 0 where the minimiser may change", x, got, exact)
		}
	}
}

// KG ≥ 0 everywhere; at a training point of a nearly noise-free model a
// new observation changes nothing (k_post(a, x_i) and σ²(x_i) are
// O(σ_n²), so b = O(σ_n)) and KG → 0, while away from the data it stays
// of the order of the posterior spread.
func TestKGNonNegativeAndZeroAtData(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g, X := kgModel(t, 10, 1e-10, rng)
	kg := NewKG(X, []float64{0, 0}, []float64{1, 1}, rng)
	for range 200 {
		x := []float64{rng.Float64(), rng.Float64()}
		if v := kg.Eval(g, x, nil); !(v >= 0) {
			t.Fatalf("KG(%v) = %g < 0", x, v)
		}
	}
	_, scale := g.Standardization()
	for _, x := range X {
		if v := kg.Eval(g, x, nil); v > 1e-4*scale {
			t.Errorf("KG at training point %v = %g, want ≈ 0", x, v)
		}
	}
	far := 0.0
	for _, s := range kg.S {
		far = max(far, kg.Eval(g, s, nil))
	}
	if far < 1e-2*scale {
		t.Errorf("largest KG on S = %g, want of the order of the posterior spread", far)
	}
	// With noise, re-measuring the incumbent (the training point of
	// least mean) has value again: b(x_i) = σ²(x_i)/√(σ²(x_i) + σ_n²) > 0.
	gn, Xn := kgModel(t, 10, 0.3, rand.New(rand.NewPCG(7, 8)))
	kgn := NewKG(Xn, []float64{0, 0}, []float64{1, 1}, rng)
	inc, lo := Xn[0], math.Inf(1)
	for _, x := range Xn {
		if m, _ := gn.Predict(x); m < lo {
			inc, lo = x, m
		}
	}
	if v := kgn.Eval(gn, inc, nil); !(v > 1e-3*scale) {
		t.Errorf("noisy model: KG at the incumbent = %g, want > 0", v)
	}
}

// The gradient is the central difference of step 1e-4·width: it must agree
// with an independent difference of Eval (step 2e-5). (The value is a
// minimum over A at each node, so it has kinks in x; the points avoid them.)
func TestKGGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g, X := kgModel(t, 8, 0.01, rng)
	kg := NewKG(X, []float64{0, 0}, []float64{1, 1}, rng)
	grad := make([]float64, 2)
	for _, x := range [][]float64{{0.3, 0.6}, {0.8, 0.2}, {0.55, 0.45}} {
		v := kg.Eval(g, x, grad)
		if v != kg.Eval(g, x, nil) {
			t.Fatal("the value changes when a gradient is asked for")
		}
		for i := range x {
			const h = 2e-5
			xp, xm := slices.Clone(x), slices.Clone(x)
			xp[i] += h
			xm[i] -= h
			fd := (kg.Eval(g, xp, nil) - kg.Eval(g, xm, nil)) / (2 * h)
			if math.Abs(fd-grad[i]) > 1e-2*(math.Abs(fd)+1e-3) {
				t.Errorf("x = %v, ∂/∂x%d: %g, finite difference %g", x, i+1, grad[i], fd)
			}
		}
	}
}

// KG bound to several models and averaged: EvalBatch equals Eval point by
// point (EvalBatch hands KG the model, not only its moments), and the
// cached means belong to each model.
func TestKGBindAverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g1, X := kgModel(t, 8, 0.01, rand.New(rand.NewPCG(5, 5)))
	k := kernel.NewStationary(kernel.Matern52, 2, false)
	k.SetLengthscales([]float64{0.15})
	y := make([]float64, len(X))
	for i, x := range X {
		y[i] = math.Sin(6*x[0]) + math.Cos(4*x[1])
	}
	g2, err := gp.New(X, y, k, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	kg := NewKG(X, []float64{0, 0}, []float64{1, 1}, rng)
	s := Average{Bind(kg, g1), Bind(kg, g2)}
	pts := [][]float64{{0.2, 0.2}, {0.7, 0.4}, {0.5, 0.9}}
	out := make([]float64, len(pts))
	s.EvalBatch(pts, out)
	for i, x := range pts {
		want := 0.5 * (kg.Eval(g1, x, nil) + kg.Eval(g2, x, nil))
		if got := s.Eval(x, nil); math.Abs(got-want) > 1e-15 || math.Abs(out[i]-want) > 1e-15 {
			t.Errorf("x = %v: Eval %g, EvalBatch %g, want %g", x, got, out[i], want)
		}
	}
	fresh := NewKG(X, []float64{0, 0}, []float64{1, 1}, rand.New(rand.NewPCG(11, 12)))
	if a, b := fresh.Eval(g2, pts[0], nil), kg.Eval(g2, pts[0], nil); a != b {
		t.Errorf("a KG used on two models gives %g on the second, a fresh one %g", b, a)
	}
}
