package gp

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// gpData draws n inputs uniformly in [0,1]^d and a function from the GP
// prior with kernel k at them, plus noise of variance noise.
func gpData(n, d int, k kernel.Kernel, noise float64, rng *rand.Rand) ([][]float64, []float64) {
	X := make([][]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
	}
	K := kernel.Matrix(k, X)
	for i := range n {
		K.SetSym(i, i, K.At(i, i)+1e-8)
	}
	var ch mat.Cholesky
	if !ch.Factorize(K) {
		panic("gpData: prior covariance not positive definite")
	}
	var L mat.TriDense
	ch.LTo(&L)
	z := make([]float64, n)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	f := mat.NewVecDense(n, nil)
	f.MulVec(&L, mat.NewVecDense(n, z))
	y := make([]float64, n)
	for i := range y {
		y[i] = f.AtVec(i) + math.Sqrt(noise)*rng.NormFloat64()
	}
	return X, y
}

// TestFITBOPriorLayout: one N(log 0.3, 3) per lengthscale, N(0, 3) on
// log s², N(log 1e-3, 0.1) on log σ_n²; an unknown kernel is refused.
func TestFITBOPriorLayout(t *testing.T) {
	p, err := FITBOPrior(kernel.NewStationary(kernel.Matern52, 3, true))
	if err != nil {
		t.Fatal(err)
	}
	l3 := math.Log(0.3)
	if want := []float64{l3, l3, l3, 0, math.Log(1e-3)}; !slices.Equal(p.Mean, want) {
		t.Errorf("means %v, want %v", p.Mean, want)
	}
	if want := []float64{3, 3, 3, 3, 0.1}; !slices.Equal(p.Var, want) {
		t.Errorf("variances %v, want %v", p.Var, want)
	}
	p, _ = FITBOPrior(kernel.NewStationary(kernel.RBF, 4, false))
	if len(p.Mean) != 3 || p.Mean[0] != l3 || p.Mean[1] != 0 {
		t.Errorf("isotropic prior means %v", p.Mean)
	}
	if _, err := FITBOPrior(kernel.NewSum(kernel.NewStationary(kernel.RBF, 1, false), kernel.NewStationary(kernel.RBF, 1, false))); err == nil {
		t.Error("FITBOPrior accepted a composite kernel")
	}
}

// TestSampleParamsConcentrates: on data drawn from a GP with lengthscale
// 0.1, far from the prior mean 0.3 in log units (1.1 against a prior sd of
// 1.7), the sampled log-lengthscales centre within 0.35 of log 0.1 and
// spread much less than the prior. Every draw gives a factorisable model
// at exactly its parameters.
func TestSampleParamsConcentrates(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	truth := kernel.NewStationary(kernel.RBF, 1, false)
	truth.SetLengthscales([]float64{0.1})
	X, y := gpData(40, 1, truth, 1e-3, rng)
	k := kernel.NewStationary(kernel.RBF, 1, false)
	s, err := SampleParams(X, y, SampleConfig{Kernel: k, M: 200, Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Params) != 200 || s.Chain.Steps != BurnFirst+200 {
		t.Fatalf("%d draws after %d steps, want 200 after %d", len(s.Params), s.Chain.Steps, BurnFirst+200)
	}
	ll := make([]float64, len(s.Params))
	for j, p := range s.Params {
		ll[j] = p[0]
	}
	m, v := meanVar(ll)
	t.Logf("log l: mean %.3f (truth %.3f), sd %.3f; rejected %d", m, math.Log(0.1), math.Sqrt(v), s.Chain.Rejected)
	if math.Abs(m-math.Log(0.1)) > 0.35 {
		t.Errorf("mean log lengthscale %.3f, truth %.3f", m, math.Log(0.1))
	}
	if math.Sqrt(v) > 0.5 {
		t.Errorf("log lengthscale sd %.3f, no narrower than the prior's %.3f", math.Sqrt(v), math.Sqrt(3))
	}
	models, err := Models(X, y, k, s.Params)
	if err != nil {
		t.Fatal(err)
	}
	for j, g := range models {
		p := g.Params()
		if !slices.Equal(p[:2], s.Params[j][:2]) || math.Abs(p[2]-s.Params[j][2]) > 1e-12 {
			t.Fatalf("model %d at %v, draw %v", j, p, s.Params[j])
		}
		if math.IsInf(g.LogMarginal(), 0) || math.IsNaN(g.LogMarginal()) {
			t.Fatalf("model %d: LML %v", j, g.LogMarginal())
		}
	}
	if !slices.Equal(s.Last, s.Params[len(s.Params)-1]) {
		t.Errorf("Last %v is not the last draw %v", s.Last, s.Params[len(s.Params)-1])
	}
}

// TestSampleParamsDeterministic: the same seed and start give the same
// draws; a continued chain burns in BurnNext and starts where the last
// stopped; a start of zero likelihood falls back to the prior mean.
func TestSampleParamsDeterministic(t *testing.T) {
	X, y := randData(15, 2, rand.New(rand.NewPCG(1, 1)))
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	run := func(start []float64, seed uint64) *Samples {
		s, err := SampleParams(X, y, SampleConfig{Kernel: k, M: 20, Start: start, Rand: rand.New(rand.NewPCG(seed, 3))})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	eq := func(a, b [][]float64) bool { return slices.EqualFunc(a, b, slices.Equal[[]float64]) }
	a, b := run(nil, 1), run(nil, 1)
	if !eq(a.Params, b.Params) {
		t.Error("same seed, different draws")
	}
	if eq(a.Params, run(nil, 2).Params) {
		t.Error("different seeds, same draws")
	}
	c := run(a.Last, 1)
	if c.Chain.Steps != BurnNext+20 || c.Restarted {
		t.Errorf("continued chain: %d steps (want %d), restarted %v", c.Chain.Steps, BurnNext+20, c.Restarted)
	}
	bad := []float64{0, 0, 0, math.NaN()}
	if d := run(bad, 1); !d.Restarted || d.Chain.Steps != BurnFirst+20 || !eq(d.Params, a.Params) {
		t.Errorf("zero-likelihood start: restarted %v, %d steps, same as a fresh chain %v", d.Restarted, d.Chain.Steps, eq(d.Params, a.Params))
	}
	if _, err := SampleParams(X, y, SampleConfig{Kernel: k, Start: []float64{0}, Rand: rand.New(rand.NewPCG(1, 1))}); err == nil {
		t.Error("a start of the wrong length was accepted")
	}
	if _, err := SampleParams(X, y, SampleConfig{Kernel: k}); err == nil {
		t.Error("a nil Rand was accepted")
	}
}

// TestNewRaw: NewRaw fits y as given (offset 0, scale 1, zero prior
// mean): its posterior mean is k*ᵀA⁻¹y, against a dense solve, and equals
// Fit with Raw at the same (fixed) parameters.
func TestNewRaw(t *testing.T) {
	X, y := randData(12, 2, rand.New(rand.NewPCG(2, 2)))
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	g, err := NewRaw(X, y, k, 1e-2)
	if err != nil {
		t.Fatal(err)
	}
	if o, s := g.Standardization(); o != 0 || s != 1 {
		t.Fatalf("standardisation (%v, %v), want (0, 1)", o, s)
	}
	d := newDense(X, y, 0, 1, k, 1e-2)
	x := []float64{0.3, 0.7}
	m, v := g.Predict(x)
	dm, dv := d.mean(x), d.cov(x, x)
	if math.Abs(m-dm) > 1e-9*(1+math.Abs(dm)) || math.Abs(v-dv) > 1e-9 {
		t.Errorf("NewRaw predicts (%v, %v), dense (%v, %v)", m, v, dm, dv)
	}
	f, err := Fit(X, y, Config{Kernel: k, Noise: 1e-2, Raw: true, Restarts: 1, MaxIter: 1, FixNoise: true})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := NewRaw(X, y, f.Kernel(), f.Noise())
	if err != nil {
		t.Fatal(err)
	}
	m1, _ := g2.Predict(x)
	m2, _ := f.Predict(x)
	if m1 != m2 {
		t.Errorf("NewRaw %v, Fit with Raw %v", m1, m2)
	}
}

// BenchmarkSampleParams is one BO iteration's marginalisation at n = 100
// observations in 3-D: M = 200 draws after the first iteration's burn-in
// of 300 (spec §3.3), ARD Matérn-5/2. It reports the likelihood
// evaluations (Cholesky factorisations) per transition.
func BenchmarkSampleParams(b *testing.B) {
	X, y := randData(100, 3, rand.New(rand.NewPCG(1, 2)))
	k := kernel.NewStationary(kernel.Matern52, 3, true)
	for b.Loop() {
		if _, err := SampleParams(X, y, SampleConfig{Kernel: k, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
			b.Fatal(err)
		}
	}
	// The same chain, counting evaluations.
	evals := 0
	ys, _, _ := standardize(y)
	w := newLMLWork(X, ys, k, MeanZero)
	e, _, _ := samplerFor(k, nil, func(u []float64) float64 {
		evals++
		l, err := w.compute(u)
		if err != nil {
			return math.Inf(-1)
		}
		return l
	})
	c, _ := e.Start(e.Mean)
	e.Run(c, BurnFirst, DefaultM, 1, rand.New(rand.NewPCG(1, 1)))
	b.ReportMetric(float64(evals)/float64(c.Steps), "evals/step")
}

// BenchmarkSampleWarped is BenchmarkSampleParams for FITBO's joint
// (θ, η) draws, g-GPs included.
func BenchmarkSampleWarped(b *testing.B) {
	X, y := randData(100, 3, rand.New(rand.NewPCG(1, 2)))
	k := kernel.NewStationary(kernel.Matern52, 3, true)
	for b.Loop() {
		if _, err := SampleWarped(X, y, WarpedConfig{Kernel: k, Rand: rand.New(rand.NewPCG(1, 1))}); err != nil {
			b.Fatal(err)
		}
	}
}
