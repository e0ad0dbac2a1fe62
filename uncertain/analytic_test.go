package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestAnalyticReducesToRBF: with Σ_x = 0 Eq. 3.24 is the RBF kernel, so the
// Analytic GP predicts and scores as the RBF GP at the same
// hyper-parameters (spec §9).
func TestAnalyticReducesToRBF(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []int{1, 2, 4} {
		X, y := testData(rng, 25, d)
		k := chapterKernel(kernel.RBF, d, y)
		p := make([]float64, d+1)
		for i := range d {
			p[i] = math.Log(0.3 + rng.Float64())
		}
		p[d] = math.Log(0.5 + rng.Float64())
		k.SetParams(p)
		noise := 1e-4
		ref, err := gp.NewRaw(X, y, k, noise)
		if err != nil {
			t.Fatal(err)
		}
		g, err := newEGP(analyticCov(X, make([]float64, d)), y, nil, append(p, math.Log(noise)))
		if err != nil {
			t.Fatal(err)
		}
		if relDiff(g.lml, ref.LogMarginal()) > 1e-9 {
			t.Errorf("d=%d: LML %v, RBF %v", d, g.lml, ref.LogMarginal())
		}
		for range 10 {
			x := make([]float64, d)
			for i := range x {
				x[i] = 2*rng.Float64() - 1
			}
			m, v := g.predict(x)
			rm, rv := ref.Predict(x)
			if relDiff(m, rm) > 1e-9 || relDiff(v, rv) > 1e-9 {
				t.Errorf("d=%d: predict = %v, %v; RBF %v, %v", d, m, v, rm, rv)
			}
		}
	}
}

// TestAnalyticKernel: σ_k² on the diagonal (Eq. 3.23), Eq. 3.24 off it, and
// a positive semi-definite Gram matrix on random inputs (spec §9).
func TestAnalyticKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	cases := []struct {
		d      int
		sigmaX float64
		l      float64
	}{
		{1, 0.05, 0.1}, {1, 0.1, 0.02}, {2, 0.1, 0.3}, {4, 0.05, 1}, {8, 0.1, 0.05},
	}
	for _, c := range cases {
		X, _ := testData(rng, 30, c.d)
		sx2 := make([]float64, c.d)
		p := make([]float64, c.d+1)
		for i := range sx2 {
			sx2[i] = c.sigmaX * c.sigmaX
			p[i] = math.Log(c.l * (1 + rng.Float64()))
		}
		p[c.d] = math.Log(2.5)
		cov := analyticCov(X, sx2)
		n := len(X)
		K := mat.NewSymDense(n, nil)
		for i := range n {
			for j := i; j < n; j++ {
				K.SetSym(i, j, cov.train(p, i, j, nil))
			}
		}
		for i := range n {
			if K.At(i, i) != 2.5 {
				t.Errorf("%+v: k(x_%d, x_%d) = %v, want σ_k² = 2.5", c, i, i, K.At(i, i))
			}
		}
		// Eq. 3.24 directly for one pair.
		want := 2.5
		for t := range c.d {
			l2 := math.Exp(2 * p[t])
			a := l2 + 2*sx2[t]
			dt := X[0][t] - X[1][t]
			want *= math.Exp(-0.5*dt*dt/a) / math.Sqrt(a/l2)
		}
		if relDiff(K.At(0, 1), want) > 1e-12 {
			t.Errorf("%+v: k(x_0, x_1) = %v, Eq. 3.24 %v", c, K.At(0, 1), want)
		}
		var eig mat.EigenSym
		if !eig.Factorize(K, false) {
			t.Fatalf("%+v: eigen-decomposition failed", c)
		}
		if lo := eig.Values(nil)[0]; lo < -1e-10*2.5*float64(n) {
			t.Errorf("%+v: smallest eigenvalue %v < 0", c, lo)
		}
	}
}

// TestAnalyticFit fits the chapter's 1-D task and checks the model is
// usable: finite predictions near the truth, positive latent variances, the
// noise in its box, and an inflated lengthscale (§3.6.2) is not required.
func TestAnalyticFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	X, y := make([][]float64, 30), make([]float64, 30)
	for i := range X {
		x := 2*rng.Float64() - 1
		X[i] = []float64{x}
		y[i] = sinTask(x+0.05*rng.NormFloat64()) + 0.001*rng.NormFloat64()
	}
	m := NewAnalytic(Config{Rand: rand.New(rand.NewPCG(1, 1))})
	if err := m.Fit(X, y, []float64{0.05}); err != nil {
		t.Fatal(err)
	}
	if nv := m.NoiseVar(); nv < noiseBound.Lo || nv > noiseBound.Hi {
		t.Errorf("noise variance %v outside its box", nv)
	}
	if math.IsNaN(m.LogMarginalLikelihood()) {
		t.Error("LML is NaN")
	}
	for _, x := range []float64{-0.8, -0.2, 0.3, 0.7} {
		mu, v := m.Predict([]float64{x})
		if math.Abs(mu-sinTask(x)) > 0.05 || !(v > 0) {
			t.Errorf("Predict(%v) = %v, %v; f = %v", x, mu, v, sinTask(x))
		}
	}
}
