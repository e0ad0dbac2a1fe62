package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// testData returns n inputs uniform in [−1, 1]^d and targets of a smooth
// function with a little noise.
func testData(rng *rand.Rand, n, d int) ([][]float64, []float64) {
	X := make([][]float64, n)
	y := make([]float64, n)
	for i := range X {
		X[i] = make([]float64, d)
		var s float64
		for t := range X[i] {
			X[i][t] = 2*rng.Float64() - 1
			s += math.Sin(3*X[i][t]) + 0.5*X[i][t]
		}
		y[i] = s + 0.01*rng.NormFloat64()
	}
	return X, y
}

// sinTask is decaying-sin, the chapter's 1-D task [002 Table 3.1].
func sinTask(x float64) float64 {
	t := 2.5 * (x + 1)
	return t * math.Sin(3*t) * math.Exp(-t)
}

func relDiff(a, b float64) float64 {
	return math.Abs(a-b) / math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// TestEGPMatchesGP: the explicit-Gram GP with the plain RBF covariance is
// the gp package's raw GP at the same hyper-parameters (predictions, LML).
func TestEGPMatchesGP(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	X, y := testData(rng, 20, 3)
	k := chapterKernel(kernel.RBF, 3, y)
	k.SetParams([]float64{math.Log(0.5), math.Log(0.8), math.Log(1.3), math.Log(1.7)})
	noise := 1e-3
	ref, err := gp.NewRaw(X, y, k, noise)
	if err != nil {
		t.Fatal(err)
	}
	g, err := newEGP(rbfCov(X, k), y, nil, append(k.Params(nil), math.Log(noise)))
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(g.lml, ref.LogMarginal()); d > 1e-10 {
		t.Errorf("LML %v, gp %v", g.lml, ref.LogMarginal())
	}
	for range 10 {
		x := []float64{2*rng.Float64() - 1, 2*rng.Float64() - 1, 2*rng.Float64() - 1}
		m, v := g.predict(x)
		rm, rv := ref.Predict(x)
		if relDiff(m, rm) > 1e-10 || relDiff(v, rv) > 1e-10 {
			t.Errorf("predict(%v) = %v, %v; gp %v, %v", x, m, v, rm, rv)
		}
	}
}

// TestEGPGradient checks the analytic LML gradient of every explicit
// covariance with one against central differences, at points away from the
// optimum (DESIGN §3: every gradient against finite differences).
func TestEGPGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	X, y := testData(rng, 15, 2)
	extra := make([]float64, len(y))
	for i := range extra {
		extra[i] = 0.01 * rng.Float64()
	}
	k := chapterKernel(kernel.RBF, 2, y)
	z := []float64{math.Log(0.3), math.Log(0.9), math.Log(1.5), math.Log(0.01)}
	cases := []struct {
		name  string
		cov   *covariance
		extra []float64
	}{
		{"analytic σx=0", analyticCov(X, []float64{0, 0}), nil},
		{"analytic σx=(0.05,0.1)", analyticCov(X, []float64{0.0025, 0.01}), nil},
		{"rbf", rbfCov(X, k), nil},
		{"rbf + slope noise (NIGP)", rbfCov(X, k), extra},
	}
	for _, c := range cases {
		g, err := newEGP(c.cov, y, c.extra, z)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		grad := make([]float64, len(z))
		g.lmlGrad(grad)
		for j := range z {
			h := 1e-6
			zp, zm := append([]float64(nil), z...), append([]float64(nil), z...)
			zp[j] += h
			zm[j] -= h
			gPlus, err1 := newEGP(c.cov, y, c.extra, zp)
			gMinus, err2 := newEGP(c.cov, y, c.extra, zm)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			fd := (gPlus.lml - gMinus.lml) / (2 * h)
			if math.Abs(fd-grad[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
				t.Errorf("%s: ∂L/∂z[%d] = %v, central difference %v", c.name, j, grad[j], fd)
			}
		}
	}
}

// TestFitEGPImproves: the fit never ends below its start, and the
// restarts are reproducible from the seed.
func TestFitEGPImproves(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	X, y := testData(rng, 20, 2)
	cov := analyticCov(X, []float64{0.0025, 0.0025})
	init := initParams(2, y)
	start, err := newEGP(cov, y, nil, init)
	if err != nil {
		t.Fatal(err)
	}
	fit := func() *egp {
		g, err := fitEGP(cov, y, egpConfig{Config: Config{Rand: rand.New(rand.NewPCG(7, 8))}, init: init})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g1, g2 := fit(), fit()
	if g1.lml < start.lml {
		t.Errorf("fitted LML %v below the start's %v", g1.lml, start.lml)
	}
	if g1.lml != g2.lml {
		t.Errorf("same seed, LML %v then %v", g1.lml, g2.lml)
	}
}
