package acq_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// rawGP is a tiny exact zero-mean GP with the kernel s²·exp(−‖x − x'‖²/(2ℓ²)),
// fitted to raw targets (no standardisation): the g-model FITBO needs
// (spec §4.6, item 2), written here so that these tests depend on no raw
// constructor in package gp. TestRawGPMatchesGP checks it against gp.New.
type rawGP struct {
	X      [][]float64
	s2, l2 float64
	alpha  []float64
	chol   mat.Cholesky
}

func newRawGP(X [][]float64, g []float64, s2, l, noise float64) *rawGP {
	m := &rawGP{X: X, s2: s2, l2: l * l}
	n := len(X)
	K := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			v := m.k(X[i], X[j])
			if i == j {
				v += noise
			}
			K.SetSym(i, j, v)
		}
	}
	if !m.chol.Factorize(K) {
		panic("rawGP: not positive definite")
	}
	a := mat.NewVecDense(n, nil)
	if err := m.chol.SolveVecTo(a, mat.NewVecDense(n, append([]float64(nil), g...))); err != nil {
		panic(err)
	}
	m.alpha = a.RawVector().Data
	return m
}

func (m *rawGP) k(a, b []float64) float64 {
	var r2 float64
	for i := range a {
		d := a[i] - b[i]
		r2 += d * d
	}
	return m.s2 * math.Exp(-0.5*r2/m.l2)
}

func (m *rawGP) Predict(x []float64) (float64, float64) { return m.PredictGrad(x, nil, nil) }

func (m *rawGP) PredictGrad(x, dmean, dvar []float64) (float64, float64) {
	n := len(m.X)
	kv := make([]float64, n)
	var mean float64
	for i, xi := range m.X {
		kv[i] = m.k(x, xi)
		mean += kv[i] * m.alpha[i]
	}
	w := mat.NewVecDense(n, nil)
	if err := m.chol.SolveVecTo(w, mat.NewVecDense(n, append([]float64(nil), kv...))); err != nil {
		panic(err)
	}
	varF := m.s2
	for i := range n {
		varF -= kv[i] * w.AtVec(i)
	}
	if dmean != nil {
		clear(dmean)
		clear(dvar)
		for i, xi := range m.X {
			for d := range x {
				dk := -kv[i] * (x[d] - xi[d]) / m.l2
				dmean[d] += m.alpha[i] * dk
				dvar[d] -= 2 * w.AtVec(i) * dk
			}
		}
	}
	return mean, varF
}

func (m *rawGP) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = m.Predict(x)
	}
}

// fitboProblem draws n points in [0,1]^d, y from a smooth function plus
// noise, standardised, and M samples (ℓ, s², η, σ_n²) from broad
// distributions with η < min y, each with its raw g-GP on √(2(y − η)).
func fitboProblem(rng *rand.Rand, n, d, M int, f func([]float64) float64) ([][]float64, []acq.FITBOSample) {
	X := make([][]float64, n)
	y := make([]float64, n)
	ymin := math.Inf(1)
	for i := range X {
		X[i] = make([]float64, d)
		for k := range X[i] {
			X[i][k] = rng.Float64()
		}
		y[i] = f(X[i]) + 0.01*rng.NormFloat64()
	}
	standardise(y)
	for _, v := range y {
		ymin = min(ymin, v)
	}
	samples := make([]acq.FITBOSample, M)
	for j := range samples {
		l := 0.3 * math.Exp(0.3*rng.NormFloat64())
		s2 := math.Exp(0.5 * rng.NormFloat64())
		eta := ymin - math.Exp(-1+0.5*rng.NormFloat64())
		noise := 1e-3 * math.Exp(rng.NormFloat64())
		g := make([]float64, n)
		for i, v := range y {
			g[i] = math.Sqrt(2 * (v - eta))
		}
		samples[j] = acq.FITBOSample{G: newRawGP(X, g, s2, l, noise), Eta: eta, Noise: noise}
	}
	return X, samples
}

func standardise(y []float64) {
	var m, ss float64
	for _, v := range y {
		m += v
	}
	m /= float64(len(y))
	for _, v := range y {
		ss += (v - m) * (v - m)
	}
	sd := math.Sqrt(ss / float64(len(y)-1))
	for i := range y {
		y[i] = (y[i] - m) / sd
	}
}

func branin01(x []float64) float64 {
	a, b := 15*x[0]-5, 15*x[1]
	t := b - 5.1/(4*math.Pi*math.Pi)*a*a + 5/math.Pi*a - 6
	return t*t + 10*(1-1/(8*math.Pi))*math.Cos(a) + 10
}

// The analytic gradients of FITBO (quadrature, App. C.1.2) and FITBO-MM
// (App. C.1.1) agree with central finite differences on random problems
// (spec Corrections, Tests).
func TestFITBOGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 4 {
		_, samples := fitboProblem(rng, 8, 2, 6, branin01)
		for _, mm := range []bool{false, true} {
			a := acq.FITBO{Samples: samples, MomentMatching: mm, Tol: 1e-12}
			for range 3 {
				x := []float64{rng.Float64(), rng.Float64()}
				grad := make([]float64, 2)
				val := a.Eval(x, grad)
				if v := a.Eval(x, nil); math.Abs(v-val) > 1e-10 {
					t.Errorf("trial %d mm=%v: Eval with gradient %.12f, without %.12f", trial, mm, val, v)
				}
				const h = 1e-5
				for i := range x {
					xp := append([]float64(nil), x...)
					xm := append([]float64(nil), x...)
					xp[i] += h
					xm[i] -= h
					fd := (a.Eval(xp, nil) - a.Eval(xm, nil)) / (2 * h)
					if err := math.Abs(fd - grad[i]); err > 1e-5*math.Max(1, math.Abs(fd)) {
						t.Errorf("trial %d mm=%v x=%v: ∂α/∂x_%d = %.9g, finite differences %.9g", trial, mm, x, i, grad[i], fd)
					}
				}
			}
		}
	}
}

// FITBO-MM is an upper bound on FITBO (moment matching over-estimates the
// mixture entropy, the subtracted term is shared), and both are ≥ 0 up to
// the quadrature's tolerance (spec §10; §9.1).
func TestFITBOMMUpperBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 3 {
		_, samples := fitboProblem(rng, 10, 2, 20, branin01)
		quad := acq.FITBO{Samples: samples, Tol: 1e-6}
		mm := acq.FITBO{Samples: samples, MomentMatching: true}
		X := make([][]float64, 200)
		for i := range X {
			X[i] = []float64{rng.Float64(), rng.Float64()}
		}
		aq, am := make([]float64, len(X)), make([]float64, len(X))
		quad.EvalBatch(X, aq)
		mm.EvalBatch(X, am)
		for i := range X {
			if am[i] < aq[i]-1e-6 || aq[i] < -1e-6 || am[i] < 0 {
				t.Fatalf("x=%v: FITBO %.8f, FITBO-MM %.8f", X[i], aq[i], am[i])
			}
		}
	}
}

// rawGP agrees with gp.New on targets already of mean 0 and sd 1 (the
// one case where gp's standardisation is the identity) and the kernel's
// default unit variance.
func TestRawGPMatchesGP(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X := make([][]float64, 9)
	g := make([]float64, len(X))
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		g[i] = rng.NormFloat64()
	}
	standardise(g)
	k := kernel.NewStationary(kernel.RBF, 2, false)
	k.SetLengthscales([]float64{0.4})
	real, err := gp.New(X, g, k, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	raw := newRawGP(X, g, 1, 0.4, 1e-3)
	for range 20 {
		x := []float64{rng.Float64(), rng.Float64()}
		m1, v1 := real.Predict(x)
		m2, v2 := raw.Predict(x)
		if math.Abs(m1-m2) > 1e-9 || math.Abs(v1-v2) > 1e-9 {
			t.Fatalf("x=%v: gp (%.12f, %.12f), rawGP (%.12f, %.12f)", x, m1, v1, m2, v2)
		}
	}
}

// predictOnly hides a model's PredictBatch, so that EvalBatch takes its
// per-point path.
type predictOnly struct{ acq.Model }

// EvalBatch equals Eval for both variants, on *gp.GP g-models (built with
// gp.New on targets of mean 0 and sd 1, so that they are raw), on rawGP
// models and on models without PredictBatch, across more points than one
// block.
func TestFITBOEvalBatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	_, samples := fitboProblem(rng, 8, 2, 5, branin01)
	gpSamples := make([]acq.FITBOSample, 4)
	hidden := make([]acq.FITBOSample, len(samples))
	for j := range hidden {
		hidden[j] = samples[j]
		hidden[j].G = predictOnly{samples[j].G}
	}
	for j := range gpSamples {
		X := make([][]float64, 7)
		g := make([]float64, len(X))
		for i := range X {
			X[i] = []float64{rng.Float64(), rng.Float64()}
			g[i] = rng.NormFloat64()
		}
		standardise(g)
		k := kernel.NewStationary(kernel.RBF, 2, false)
		k.SetLengthscales([]float64{0.2 + 0.3*rng.Float64()})
		m, err := gp.New(X, g, k, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		gpSamples[j] = acq.FITBOSample{G: m, Eta: -2 - rng.Float64(), Noise: 1e-3}
	}
	X := make([][]float64, 300)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
	}
	out := make([]float64, len(X))
	for _, set := range [][]acq.FITBOSample{samples, hidden, gpSamples} {
		for _, mm := range []bool{false, true} {
			a := acq.FITBO{Samples: set, MomentMatching: mm}
			a.EvalBatch(X, out)
			for i, x := range X {
				// Exact in the pure-Go build; OpenBLAS sums the batch's
				// products in another order, so allow the last bits.
				if v := a.Eval(x, nil); math.Abs(v-out[i]) > 1e-12*math.Max(1, math.Abs(v)) {
					t.Fatalf("mm=%v x=%v: EvalBatch %.15g, Eval %.15g", mm, x, out[i], v)
				}
			}
		}
	}
}

// BenchmarkFITBOEvalBatch scores 1000 candidates with M = 50 samples of a
// FITBO posterior on 30 Branin points in 2-D (shared data, samples
// differing in ℓ, s², η and σ_n², rawGP g-models); "predict" is the cost
// of the g-models' predictions alone (go test ./acq -run '^$' -bench FITBO).
func BenchmarkFITBOEvalBatch(b *testing.B) {
	rng := rand.New(rand.NewPCG(23, 24))
	_, samples := fitboProblem(rng, 30, 2, 50, branin01)
	X := make([][]float64, 1000)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
	}
	out := make([]float64, len(X))
	mean, varF := make([]float64, len(X)), make([]float64, len(X))
	b.Run("predict", func(b *testing.B) {
		for b.Loop() {
			for _, s := range samples {
				s.G.(acq.BatchModel).PredictBatch(X, mean, varF)
			}
		}
	})
	for _, mm := range []bool{false, true} {
		name := "quad"
		if mm {
			name = "mm"
		}
		b.Run(name, func(b *testing.B) {
			a := acq.FITBO{Samples: samples, MomentMatching: mm}
			for b.Loop() {
				a.EvalBatch(X, out)
			}
		})
	}
}
