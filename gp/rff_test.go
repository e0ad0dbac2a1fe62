package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// The feature map's inner product is an unbiased estimate of the kernel: with
// m = 20,000 features, φ(x)ᵀφ(x') is within 4 standard errors (estimated from
// the m per-feature terms) of k(x, x') for every family, at distances from 0
// to 3 lengthscales. A wrong spectral law fails: e.g. Matérn-ν drawn with
// u/ν instead of u/(2ν), or as RBF, misses by many standard errors at r ≈ 1.
func TestRFFFeatureCovariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const m = 20000
	for _, fam := range []kernel.Family{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		k := kernel.NewStationary(fam, 2, true)
		k.SetLengthscales([]float64{0.3, 0.7})
		k.SetVariance(1.7)
		f, err := drawFeatures(k, m, rng)
		if err != nil {
			t.Fatal(err)
		}
		x := []float64{0.2, 0.4}
		px, py := make([]float64, m), make([]float64, m)
		f.at(x, px)
		for _, y := range [][]float64{{0.2, 0.4}, {0.25, 0.45}, {0.4, 0.1}, {0.5, 0.9}, {0.9, 0.9}, {1.1, 0.4}} {
			f.at(y, py)
			var s, ss float64
			for j := range px {
				v := float64(m) * px[j] * py[j] // one feature's estimate
				s += v
				ss += v * v
			}
			est := s / m
			se := math.Sqrt((ss/m - est*est) / m)
			want := k.Eval(x, y)
			if math.Abs(est-want) > 4*se+1e-12 {
				t.Errorf("%v: φ(x)ᵀφ(y) = %.4f ± %.4f, k(x, y) = %.4f at y = %v", fam, est, se, want, y)
			}
		}
	}
	if _, err := drawFeatures(kernel.NewStationary(kernel.RQ, 2, false), 10, rng); err == nil {
		t.Error("RQ features drawn without an error")
	}
}

// rffModel is a 2-D GP on a smooth target, for the path tests.
func rffModel(t *testing.T, fam kernel.Family, n int, noise float64, mean Mean) *GP {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		X[i] = []float64{rng.Float64(), rng.Float64()}
		y[i] = 10 + 3*math.Sin(5*X[i][0])*math.Cos(3*X[i][1])
	}
	k := kernel.NewStationary(fam, 2, true)
	k.SetLengthscales([]float64{0.3, 0.4})
	k.SetVariance(1.2)
	g, err := NewWithMean(X, y, k, noise, mean)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// With many features, the average of many sample paths approaches the GP's
// posterior mean at the training points and elsewhere, and their spread its
// posterior standard deviation at a point away from the data, for both forms
// of the weight posterior (primal m×m and dual n×n), on the original y scale.
func TestRFFPathMoments(t *testing.T) {
	cases := []struct {
		name  string
		fam   kernel.Family
		mean  Mean
		dual  bool
		m     int
		paths int
	}{
		{"rbf-dual", kernel.RBF, MeanZero, true, 1024, 200},
		{"matern52-dual-constmean", kernel.Matern52, MeanConstant, true, 1024, 200},
		{"rbf-primal", kernel.RBF, MeanZero, false, 200, 200},
	}
	for _, c := range cases {
		g := rffModel(t, c.fam, 12, 1e-2, c.mean)
		_, scale := g.Standardization()
		rng := rand.New(rand.NewPCG(11, 12))
		pts := append(append([][]float64(nil), g.x...), []float64{0.95, 0.05})
		sum, sq := make([]float64, len(pts)), make([]float64, len(pts))
		paths := float64(c.paths)
		worst := 0.0
		for range c.paths {
			p, err := g.samplePath(c.m, rng, c.dual)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range pts {
				v := p.Eval(x)
				sum[i] += v
				sq[i] += v * v
			}
		}
		for i, x := range pts {
			mu, v := g.Predict(x)
			avg := sum[i] / paths
			sd := math.Sqrt(sq[i]/paths - avg*avg)
			// Monte Carlo error 4σ/√paths plus the features' bias, a few
			// per cent of the y scale.
			tol := 4*math.Sqrt(v)/math.Sqrt(paths) + 0.03*scale
			worst = math.Max(worst, math.Abs(avg-mu)/tol)
			if math.Abs(avg-mu) > tol {
				t.Errorf("%s: point %d: mean of paths %.4f, posterior mean %.4f (tol %.4f)", c.name, i, avg, mu, tol)
			}
			if i == len(pts)-1 {
				t.Logf("%s: worst |mean error|/tol %.2f, sd ratio %.3f", c.name, worst, sd/math.Sqrt(v))
				if r := sd / math.Sqrt(v); r < 0.8 || r > 1.2 {
					t.Errorf("%s: sd of paths %.4f, posterior sd %.4f", c.name, sd, math.Sqrt(v))
				}
			}
		}
	}
}

// Path.Grad agrees with central finite differences of Path.Eval and returns
// the same value.
func TestRFFPathGrad(t *testing.T) {
	g := rffModel(t, kernel.Matern32, 15, 1e-3, MeanZero)
	rng := rand.New(rand.NewPCG(5, 6))
	p, err := g.SamplePath(256, rng)
	if err != nil {
		t.Fatal(err)
	}
	grad := make([]float64, 2)
	for range 5 {
		x := []float64{rng.Float64(), rng.Float64()}
		v := p.Grad(x, grad)
		if e := p.Eval(x); math.Abs(v-e) > 1e-12*(1+math.Abs(e)) {
			t.Errorf("Grad value %v, Eval %v", v, e)
		}
		for j := range x {
			const h = 1e-6
			xp, xm := append([]float64(nil), x...), append([]float64(nil), x...)
			xp[j] += h
			xm[j] -= h
			fd := (p.Eval(xp) - p.Eval(xm)) / (2 * h)
			if !gradClose(grad[j], fd, 1e-7) {
				t.Errorf("∂f̃/∂x%d = %v, finite differences %v", j, grad[j], fd)
			}
		}
	}
}

// A model whose kernel is not a plain stationary one is refused with an
// error, not a panic.
func TestRFFKernelRefused(t *testing.T) {
	X := [][]float64{{0.1, 0.2}, {0.5, 0.6}}
	k := kernel.NewStationary(kernel.RQ, 2, false)
	g, err := New(X, []float64{1, 2}, k, 1e-3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.SamplePath(16, rand.New(rand.NewPCG(1, 1))); err == nil {
		t.Error("RQ sample path drawn without an error")
	}
}
