package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

func testModels(t *testing.T, rng *rand.Rand) map[string]*GP {
	t.Helper()
	X, y := randData(25, 3, rng)
	out := make(map[string]*GP)
	for _, f := range []kernel.Family{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52, kernel.RQ} {
		k := kernel.NewStationary(f, 3, true)
		k.SetLengthscales([]float64{0.3, 0.5, 0.8})
		k.SetVariance(1.5)
		g, err := New(X, y, k, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		out[f.String()] = g
	}
	prod := kernel.NewProduct(kernel.NewStationary(kernel.Matern52, 3, true), kernel.NewStationary(kernel.RBF, 3, false))
	g, err := New(X, y, prod, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	out["product"] = g
	return out
}

func randPoints(m, d int, rng *rand.Rand) [][]float64 {
	X := make([][]float64, m)
	for i := range X {
		X[i] = make([]float64, d)
		for j := range X[i] {
			X[i][j] = rng.Float64()
		}
	}
	return X
}

func TestPredictAgainstDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for name, g := range testModels(t, rng) {
		ref := newDense(g.x, g.y, g.offset, g.scale, g.k, g.noise)
		for _, x := range randPoints(10, 3, rng) {
			m, v := g.Predict(x)
			if wm := ref.mean(x); math.Abs(m-wm) > 1e-9*g.scale {
				t.Errorf("%s: mean %v, dense %v", name, m, wm)
			}
			if wv := ref.cov(x, x); math.Abs(v-wv) > 1e-9*g.scale*g.scale {
				t.Errorf("%s: variance %v, dense %v", name, v, wv)
			}
		}
		if nv := g.NoiseVarY(); math.Abs(nv-0.01*g.scale*g.scale) > 1e-15 {
			t.Errorf("%s: NoiseVarY %v", name, nv)
		}
	}
}

func TestInterpolation(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	X, y := randData(15, 2, rng)
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	k.SetLengthscales([]float64{0.3, 0.3})
	g, err := New(X, y, k, 1e-10)
	if err != nil {
		t.Fatal(err)
	}
	_, sd := g.Standardization()
	for i, x := range X {
		m, v := g.Predict(x)
		if math.Abs(m-y[i]) > 1e-6*sd {
			t.Errorf("point %d: mean %v, y %v (sd %v)", i, m, y[i], sd)
		}
		if v > 1e-6*sd*sd {
			t.Errorf("point %d: variance %v at an observation", i, v)
		}
	}
}

func TestPredictGrad(t *testing.T) {
	const h = 1e-6
	rng := rand.New(rand.NewPCG(25, 26))
	for name, g := range testModels(t, rng) {
		dm, dv := make([]float64, 3), make([]float64, 3)
		for _, x := range randPoints(10, 3, rng) {
			m, v := g.PredictGrad(x, dm, dv)
			if pm, pv := g.Predict(x); math.Abs(pm-m) > 1e-12*math.Abs(m) || math.Abs(pv-v) > 1e-12*v {
				t.Errorf("%s: PredictGrad (%v, %v) != Predict (%v, %v)", name, m, v, pm, pv)
			}
			for d := range x {
				xp := append([]float64(nil), x...)
				xp[d] += h
				mp, vp := g.Predict(xp)
				xp[d] -= 2 * h
				mm, vm := g.Predict(xp)
				fm, fv := (mp-mm)/(2*h), (vp-vm)/(2*h)
				// Matérn-1/2 posteriors have kinks only at the data.
				if !gradClose(dm[d], fm, 1e-7*g.scale) {
					t.Errorf("%s dmean[%d]: analytic %v, fd %v", name, d, dm[d], fm)
				}
				if !gradClose(dv[d], fv, 1e-7*g.scale*g.scale) {
					t.Errorf("%s dvar[%d]: analytic %v, fd %v", name, d, dv[d], fv)
				}
			}
		}
		// nil buffers are allowed.
		g.PredictGrad(randPoints(1, 3, rng)[0], nil, dv)
		g.PredictGrad(randPoints(1, 3, rng)[0], dm, nil)
	}
}

func TestMeanGradMatchesPredictGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for name, g := range testModels(t, rng) {
		dm, want := make([]float64, 3), make([]float64, 3)
		for _, x := range randPoints(10, 3, rng) {
			m := g.MeanGrad(x, dm)
			pm, _ := g.PredictGrad(x, want, nil)
			if math.Abs(pm-m) > 1e-12*math.Max(1, math.Abs(m)) {
				t.Errorf("%s: MeanGrad mean %v, PredictGrad %v", name, m, pm)
			}
			for d := range dm {
				if math.Abs(dm[d]-want[d]) > 1e-12*math.Max(1, math.Abs(want[d])) {
					t.Errorf("%s dmean[%d]: MeanGrad %v, PredictGrad %v", name, d, dm[d], want[d])
				}
			}
		}
	}
}

func TestPredictBatchAndCov(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	for name, g := range testModels(t, rng) {
		// More points than one block, so that a partial block follows.
		many := append(randPoints(blockSize+13, 3, rng), g.x[3])
		mean, varF := make([]float64, len(many)), make([]float64, len(many))
		g.PredictBatch(many, mean, varF)
		for i, x := range many {
			m, v := g.Predict(x)
			if !batchMatches(m, v, mean[i], varF[i]) {
				t.Fatalf("%s point %d: batch (%v, %v), single (%v, %v)", name, i, mean[i], varF[i], m, v)
			}
		}
		Xt := append(many[:12:12], g.x[3]) // an observed input
		c := g.Cov(Xt)
		ref := newDense(g.x, g.y, g.offset, g.scale, g.k, g.noise)
		for i, x := range Xt {
			_, v := g.Predict(x)
			if math.Abs(c.At(i, i)-v) > 1e-12*math.Max(v, 1e-12) {
				t.Errorf("%s point %d: Cov diagonal %v, varF %v", name, i, c.At(i, i), v)
			}
			for j := 0; j < i; j++ {
				if w := ref.cov(x, Xt[j]); math.Abs(c.At(i, j)-w) > 1e-9*g.scale*g.scale {
					t.Errorf("%s Cov[%d,%d] = %v, dense %v", name, i, j, c.At(i, j), w)
				}
			}
		}
	}
}

func TestVarianceClamp(t *testing.T) {
	X := [][]float64{{0.5}}
	k := kernel.NewStationary(kernel.RBF, 1, false)
	g, err := New(X, []float64{1}, k, 1e-14)
	if err != nil {
		t.Fatal(err)
	}
	dv := make([]float64, 1)
	_, v := g.PredictGrad([]float64{0.5}, nil, dv)
	if v != 1e-12 || dv[0] != 0 {
		t.Errorf("clamped variance %v (want 1e-12·s_f²·sd² = 1e-12), gradient %v", v, dv)
	}
}

func TestSample(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	X, y := randData(10, 2, rng)
	k := kernel.NewStationary(kernel.Matern52, 2, true)
	k.SetLengthscales([]float64{0.4, 0.4})
	g, err := New(X, y, k, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	Xt := append(randPoints(3, 2, rng), X[0], X[0]) // a duplicate query needs the jitter
	const ns = 20000
	s, err := g.Sample(Xt, ns, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != ns || len(s[0]) != len(Xt) {
		t.Fatalf("Sample shape %d×%d", len(s), len(s[0]))
	}
	c := g.Cov(Xt)
	for i, x := range Xt {
		m, v := g.Predict(x)
		var sm float64
		for _, f := range s {
			sm += f[i]
		}
		sm /= ns
		if math.Abs(sm-m) > 4*math.Sqrt(v/ns)+1e-9 {
			t.Errorf("point %d: sample mean %v, posterior mean %v (sd %v)", i, sm, m, math.Sqrt(v))
		}
		for j := 0; j <= i; j++ {
			mj, _ := g.Predict(Xt[j])
			var sc float64
			for _, f := range s {
				sc += (f[i] - m) * (f[j] - mj)
			}
			sc /= ns
			// Standard error of a sample covariance ≈ sqrt((c_ii c_jj + c_ij²)/n).
			se := math.Sqrt((c.At(i, i)*c.At(j, j) + c.At(i, j)*c.At(i, j)) / ns)
			if math.Abs(sc-c.At(i, j)) > 4*se+1e-6*c.At(i, i) {
				t.Errorf("cov[%d,%d]: sample %v, posterior %v (se %v)", i, j, sc, c.At(i, j), se)
			}
		}
	}
	again, _ := g.Sample(Xt, 3, rand.New(rand.NewPCG(1, 1)))
	for i := range again[2] {
		if again[2][i] != s[2][i] {
			t.Fatal("Sample is not reproducible with the same seed")
		}
	}
}
