package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// clusteredData draws a design where the constant mean matters: 15 points
// bunched near the origin with low targets and 8 spread over [0,1]² with
// high ones. Standardised, the targets average 0, but the GP counts the
// bunch as little more than one point, so the GLS mean c* is well above 0.
func clusteredData(rng *rand.Rand) ([][]float64, []float64) {
	var X [][]float64
	var y []float64
	for range 15 {
		x := []float64{0.05 * rng.Float64(), 0.05 * rng.Float64()}
		X = append(X, x)
		y = append(y, 1+0.1*math.Sin(20*x[0])+0.01*rng.NormFloat64())
	}
	for range 8 {
		x := []float64{rng.Float64(), rng.Float64()}
		X = append(X, x)
		y = append(y, 6+0.5*math.Sin(6*x[0])*x[1]+0.01*rng.NormFloat64())
	}
	return X, y
}

func clusteredKernel() *kernel.Stationary {
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	k.SetLengthscales([]float64{0.2, 0.3})
	k.SetVariance(1.2)
	return k
}

// denseLML is the LML at a fixed constant mean c, by a dense Cholesky.
func denseLML(X [][]float64, ys []float64, k kernel.Kernel, noise, c float64) float64 {
	n := len(X)
	A := denseCov(X, k, noise)
	var chol mat.Cholesky
	if !chol.Factorize(A) {
		panic("reference factorisation failed")
	}
	r := mat.NewVecDense(n, nil)
	for i, v := range ys {
		r.SetVec(i, v-c)
	}
	var alpha mat.VecDense
	if err := chol.SolveVecTo(&alpha, r); err != nil {
		panic(err)
	}
	return -0.5*mat.Dot(r, &alpha) - 0.5*chol.LogDet() - 0.5*float64(n)*math.Log(2*math.Pi)
}

// TestConstantMeanProfile checks that the profiled c is the maximiser of
// the LML in c, that LogMarginal is the LML at c*, and that it beats the
// zero mean on data whose GLS mean is not 0.
func TestConstantMeanProfile(t *testing.T) {
	X, y := clusteredData(rand.New(rand.NewPCG(61, 62)))
	k := clusteredKernel()
	const noise = 0.01
	g, err := NewWithMean(X, y, k, noise, MeanConstant)
	if err != nil {
		t.Fatal(err)
	}
	z, err := New(X, y, k, noise)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Mean()
	if !(c > 0.3) {
		t.Fatalf("profiled c = %v, want clearly positive on clustered data", c)
	}
	if z.Mean() != 0 {
		t.Errorf("zero-mean GP has Mean() = %v", z.Mean())
	}
	ys, _, _ := standardize(y)
	want := denseLML(X, ys, k, noise, c)
	if got := g.LogMarginal(); math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogMarginal %v, dense LML at c* %v", got, want)
	}
	for _, d := range []float64{-1e-3, 1e-3, -0.1, 0.1} {
		if l := denseLML(X, ys, k, noise, c+d); l >= want {
			t.Errorf("LML at c*%+g = %v >= LML at c* = %v: c* is not the maximiser", d, l, want)
		}
	}
	if l0 := z.LogMarginal(); !(g.LogMarginal() > l0+1) {
		t.Errorf("constant-mean LML %v not above zero-mean LML %v", g.LogMarginal(), l0)
	}
	grad := make([]float64, len(g.Params()))
	if got, _ := g.LogMarginalGrad(g.Params(), grad); math.Abs(got-want) > 1e-10*math.Abs(want) {
		t.Errorf("LogMarginalGrad value %v, want %v", got, want)
	}
	if _, err := NewWithMean(X, y, k, noise, Mean(7)); err == nil {
		t.Error("NewWithMean accepted an unknown mean")
	}
}

// TestConstantMeanGrad checks the gradient of the profiled LML (envelope
// theorem: the gradient at c fixed to c*) against finite differences of
// the profiled LML, which re-profiles c at each point.
func TestConstantMeanGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	X, y := clusteredData(rng)
	mx, my := mixedData(30, rng)
	for name, tc := range map[string]struct {
		X [][]float64
		y []float64
		k kernel.Kernel
	}{
		"matern52-ard": {X, y, kernel.NewStationary(kernel.Matern52, 2, true)},
		"rbf-iso":      {X, y, kernel.NewStationary(kernel.RBF, 2, false)},
		"casmopolitan": {mx, my, casmoKernel()},
	} {
		g, err := Fit(tc.X, tc.y, Config{Kernel: tc.k, Mean: MeanConstant, Restarts: 1, MaxIter: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		np := tc.k.NumParams() + 1
		const h = 1e-5
		for range 3 {
			p := make([]float64, np)
			for j, b := range tc.k.Bounds() {
				p[j] = b.Lo + (0.1+0.8*rng.Float64())*(b.Hi-b.Lo) // inside, so λ ± h stays in [0, 1]
			}
			p[np-1] = math.Log(1e-3 + 0.1*rng.Float64())
			checkLMLGrad(t, name, g, p, h)
		}
	}
}

// TestConstantMeanFit checks that Fit with MeanConstant finds a better
// LML than with MeanZero on clustered data, and that its predictions far
// from the data revert to offset + scale·c, not to the sample mean.
func TestConstantMeanFit(t *testing.T) {
	X, y := clusteredData(rand.New(rand.NewPCG(65, 66)))
	fit := func(m Mean) *GP {
		g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.Matern52, 2, true), Mean: m, Restarts: 4, Rand: rand.New(rand.NewPCG(1, 2))})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g, z := fit(MeanConstant), fit(MeanZero)
	if !(g.LogMarginal() > z.LogMarginal()) {
		t.Errorf("constant-mean LML %v not above zero-mean LML %v", g.LogMarginal(), z.LogMarginal())
	}
	offset, scale := g.Standardization()
	far := []float64{30, -30}
	m, _ := g.Predict(far)
	if want := offset + scale*g.Mean(); math.Abs(m-want) > 1e-9*scale {
		t.Errorf("far prediction %v, want offset + scale·c = %v", m, want)
	}
	if math.Abs(m-offset) < 0.3*scale {
		t.Errorf("far prediction %v stays near the sample mean %v (c = %v)", m, offset, g.Mean())
	}
	if m0, _ := z.Predict(far); math.Abs(m0-offset) > 1e-9*scale {
		t.Errorf("zero-mean far prediction %v, want the sample mean %v", m0, offset)
	}
}

// TestConstantMeanPredict checks Predict against a dense computation of
// c + k_*ᵀA⁻¹(ỹ − c), PredictBatch and PredictGrad against Predict, and
// ∇μ against finite differences.
func TestConstantMeanPredict(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 68))
	X, y := clusteredData(rng)
	k := clusteredKernel()
	const noise = 0.01
	g, err := NewWithMean(X, y, k, noise, MeanConstant)
	if err != nil {
		t.Fatal(err)
	}
	ys, offset, scale := standardize(y)
	r := make([]float64, len(ys))
	for i, v := range ys {
		r[i] = v - g.Mean()
	}
	ref := newDense(X, r, offset+scale*g.Mean(), scale, k, noise)
	P := randPoints(40, 2, rng) // ≥ minBlockSize, so PredictBatch solves blocks
	mean, varF := make([]float64, len(P)), make([]float64, len(P))
	g.PredictBatch(P, mean, varF)
	for i, x := range P {
		m, v := g.Predict(x)
		if wm := ref.mean(x); math.Abs(m-wm) > 1e-9*scale {
			t.Errorf("mean %v, dense %v", m, wm)
		}
		if wv := ref.cov(x, x); math.Abs(v-wv) > 1e-9*scale*scale {
			t.Errorf("variance %v, dense %v", v, wv)
		}
		if !batchMatches(m, v, mean[i], varF[i]) {
			t.Errorf("PredictBatch (%v, %v), Predict (%v, %v)", mean[i], varF[i], m, v)
		}
		dm := make([]float64, 2)
		gm, gv := g.PredictGrad(x, dm, nil)
		if math.Abs(gm-m) > 1e-12*scale || math.Abs(gv-v) > 1e-12*scale*scale {
			t.Errorf("PredictGrad (%v, %v), Predict (%v, %v)", gm, gv, m, v)
		}
		const h = 1e-6
		for j := range x {
			xp := append([]float64(nil), x...)
			xp[j] += h
			mp, _ := g.Predict(xp)
			xp[j] -= 2 * h
			mm, _ := g.Predict(xp)
			if fd := (mp - mm) / (2 * h); !gradClose(dm[j], fd, 1e-6*scale) {
				t.Errorf("∇μ[%d] %v, fd %v", j, dm[j], fd)
			}
		}
	}
}

// TestConstantMeanFantasize checks that a fantasy keeps c and equals a
// factorisation of the extended data at the same hyper-parameters and c.
func TestConstantMeanFantasize(t *testing.T) {
	rng := rand.New(rand.NewPCG(69, 70))
	X, y := clusteredData(rng)
	g, err := NewWithMean(X, y, clusteredKernel(), 0.01, MeanConstant)
	if err != nil {
		t.Fatal(err)
	}
	Xf := randPoints(3, 2, rng)
	yf := []float64{2, 7, 0}
	f, err := g.Fantasize(Xf, yf)
	if err != nil {
		t.Fatal(err)
	}
	if f.Mean() != g.Mean() {
		t.Errorf("fantasy c = %v, base c = %v", f.Mean(), g.Mean())
	}
	xs, ys := extended(g, Xf, yf)
	ref, err := newGP(xs, ys, g.offset, g.scale, g.k.Clone(), math.Log(g.noise), MeanZero)
	if err != nil {
		t.Fatal(err)
	}
	ref.mean, ref.c = MeanConstant, g.c
	ref.solveAlpha()
	for _, x := range append(randPoints(8, 2, rng), Xf...) {
		m1, v1 := f.Predict(x)
		m2, v2 := ref.Predict(x)
		if math.Abs(m1-m2) > 1e-9 || math.Abs(v1-v2) > 1e-9 {
			t.Errorf("fantasy (%v, %v), refit (%v, %v)", m1, v1, m2, v2)
		}
	}
	if d := math.Abs(f.LogMarginal() - ref.LogMarginal()); d > 1e-9 {
		t.Errorf("LML differs by %v", d)
	}
	// A zero-mean fantasy of the same data predicts differently far away:
	// the test would not notice a dropped c otherwise.
	z, err := New(X, y, clusteredKernel(), 0.01)
	if err != nil {
		t.Fatal(err)
	}
	zf, err := z.Fantasize(Xf, yf)
	if err != nil {
		t.Fatal(err)
	}
	far := []float64{30, 30}
	if m1, _ := f.Predict(far); math.Abs(m1-(g.offset+g.scale*g.c)) > 1e-9*g.scale {
		t.Errorf("fantasy far prediction %v, want %v", m1, g.offset+g.scale*g.c)
	}
	if m0, _ := zf.Predict(far); math.Abs(m0-g.offset) > 1e-9*g.scale {
		t.Errorf("zero-mean fantasy far prediction %v, want %v", m0, g.offset)
	}
}
