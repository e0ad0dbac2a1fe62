package acq

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The MES term ψ(γ) is non-negative and finite for every γ, continuous
// where its tail form takes over (γ = −4), equal to the direct formula where
// that is still accurate, tends to its asymptote log t + ½log(2π) − ½ + 2/t² for
// γ = −t → −∞, and ψ' matches central finite differences of ψ.
func TestMESTerm(t *testing.T) {
	for g := -1e6; g < 60; g = nextGamma(g) {
		p, dp := mesTerm(g)
		if !(p >= 0) || math.IsInf(p, 0) || !(dp <= 0) || math.IsInf(dp, 0) {
			t.Fatalf("ψ(%g) = %g, ψ' = %g: want finite, ψ ≥ 0, ψ' ≤ 0", g, p, dp)
		}
	}
	lo, dlo := mesTerm(-millsSplit - 1e-12)
	hi, dhi := mesTerm(-millsSplit + 1e-12)
	if math.Abs(lo-hi) > 1e-12*hi || math.Abs(dlo-dhi) > 1e-10*math.Abs(dhi) {
		t.Errorf("ψ jumps at γ = −4: %.17g vs %.17g, ψ' %.17g vs %.17g", lo, hi, dlo, dhi)
	}
	for _, g := range []float64{-4.5, -6, -10} {
		lam := normPDF(g) / normCDF(g)
		direct := 0.5*g*lam - math.Log(normCDF(g))
		if p, _ := mesTerm(g); math.Abs(p-direct) > 1e-12*direct {
			t.Errorf("ψ(%g) = %.17g, direct formula %.17g", g, p, direct)
		}
	}
	for _, tt := range []float64{1e4, 1e6} {
		asym := math.Log(tt) + logSqrt2Pi - 0.5
		if p, _ := mesTerm(-tt); math.Abs(p-asym-2/(tt*tt)) > 1e-14*asym {
			t.Errorf("ψ(−%g) = %.17g, asymptote %.17g", tt, p, asym)
		}
	}
	for _, g := range []float64{-1e3, -50, -5, -4.2, -3, -1, 0, 0.7, 2, 6} {
		h := 1e-6 * math.Max(1, math.Abs(g))
		pp, _ := mesTerm(g + h)
		pm, _ := mesTerm(g - h)
		fd := (pp - pm) / (2 * h)
		if _, dp := mesTerm(g); math.Abs(dp-fd) > 1e-6*math.Abs(fd)+1e-12 {
			t.Errorf("ψ'(%g) = %.10g, finite differences %.10g", g, dp, fd)
		}
	}
}

func nextGamma(g float64) float64 {
	if g < -10 {
		return g * 0.93
	}
	return g + 0.01
}

// MES ≥ 0 at random points of random models with random minimum samples,
// including samples above the posterior mean (γ < 0) and far below it.
func TestMESNonNegative(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 2000 {
		m := testModel{shift: 4 * rng.NormFloat64(), v0: math.Pow(10, -6*rng.Float64()), v1: rng.Float64()}
		x := []float64{rng.Float64(), rng.Float64(), rng.Float64()}
		minima := make([]float64, 1+rng.IntN(10))
		for k := range minima {
			minima[k] = m.shift + 10*rng.NormFloat64()
		}
		if v := (MES{Minima: minima}).Eval(m, x, nil); !(v >= 0) || math.IsInf(v, 0) {
			t.Fatalf("MES = %v at %v (model %+v, minima %v)", v, x, m, minima)
		}
	}
}

// MES's input gradient agrees with central finite differences with γ
// moderate, in the tail form and positive, and EvalBatch gives Eval's
// values; with σ = 0 MES is 0 with a zero gradient.
func TestMESGradient(t *testing.T) {
	m := testModel{shift: 0.1, v0: 0.01, v1: 0.5}
	points := [][]float64{{0.1, 0.9, 0.4}, {0.55, 0.2, 0.8}, {0.3, 0.4, 0.5}}
	for _, x := range points {
		mu, v := m.Predict(x)
		sd := math.Sqrt(v)
		for _, gs := range [][]float64{{1.5}, {0.2, 2, 4}, {-0.5, 1}, {-5, 0.5}, {-30}, {8}} {
			minima := make([]float64, len(gs))
			for k, g := range gs {
				minima[k] = mu - g*sd
			}
			checkGradient(t, fmt.Sprintf("MES γ≈%v", gs), MES{Minima: minima}, m, x)
		}
	}
	bm := batchTestModel{m}
	f := MES{Minima: []float64{-0.5, 0.3, 1}}
	out := make([]float64, len(points))
	EvalBatch(f, bm, points, out)
	for i, x := range points {
		if want := f.Eval(m, x, nil); out[i] != want {
			t.Errorf("EvalBatch[%d] = %v, Eval %v", i, out[i], want)
		}
	}
	g := []float64{1, 1, 1}
	if v := f.Eval(constModel{mu: 1, v: 0}, []float64{0, 0, 0}, g); v != 0 || slices.ContainsFunc(g, func(v float64) bool { return v != 0 }) {
		t.Errorf("MES with σ = 0: %v, gradient %v", v, g)
	}
}

// batchTestModel adds a point-by-point PredictBatch to a Model.
type batchTestModel struct{ Model }

func (b batchTestModel) PredictBatch(X [][]float64, mean, varF []float64) {
	for i, x := range X {
		mean[i], varF[i] = b.Predict(x)
	}
}

// gumbelCase is a candidate set of 60 independent normal marginals with
// spread means and sds, a few of them competitive for the minimum.
func gumbelCase(rng *rand.Rand) (means, sds []float64) {
	means, sds = make([]float64, 60), make([]float64, 60)
	for i := range means {
		means[i] = 1 + 0.8*rng.NormFloat64()
		sds[i] = 0.1 + 0.4*rng.Float64()
	}
	sds[7] = 0 // an exactly known point
	return means, sds
}

// quantile returns the p-quantile of sorted xs (linear interpolation).
func quantile(sorted []float64, p float64) float64 {
	h := p * float64(len(sorted)-1)
	i := int(h)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// The Gumbel sampler: (1) the bisection solves Π Φ((z + μ_i)/σ_i) = q; the
// fitted Gumbel has the exact median and interquartile range of max(−f);
// (2) the empirical quartiles of 20,000 draws match the fitted Gumbel's;
// (3) they approximate the quartiles of the true minimum of the independent
// normals, from 20,000 Monte Carlo draws, and its 10 % and 90 % points more
// loosely; (4) draws are capped at best − 1e-6.
func TestGumbelMinima(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	means, sds := gumbelCase(rng)
	z := map[float64]float64{}
	for _, q := range []float64{0.25, 0.5, 0.75} {
		z[q] = maxQuantile(means, sds, q)
		// Independent check of the root: the product of the CDFs.
		prod := 1.0
		for i, mu := range means {
			if sds[i] == 0 {
				if z[q] < -mu {
					prod = 0
				}
				continue
			}
			prod *= normCDF((z[q] + mu) / sds[i])
		}
		if math.Abs(prod-q) > 1e-8 {
			t.Errorf("P(max g ≤ z_%g) = %.10f", q, prod)
		}
	}
	a, b := fitGumbel(means, sds)
	gq := func(q float64) float64 { return a - b*math.Log(-math.Log(q)) } // Gumbel quantile of g
	if math.Abs(gq(0.5)-z[0.5]) > 1e-9 || math.Abs(gq(0.75)-gq(0.25)-(z[0.75]-z[0.25])) > 1e-9 {
		t.Errorf("fitted Gumbel median %.6f IQR %.6f, exact %.6f and %.6f", gq(0.5), gq(0.75)-gq(0.25), z[0.5], z[0.75]-z[0.25])
	}

	const n = 20000
	draws := GumbelMinima(means, sds, n, math.Inf(1), rng)
	slices.Sort(draws)
	truth := make([]float64, n)
	for s := range truth {
		lo := math.Inf(1)
		for i, mu := range means {
			lo = math.Min(lo, mu+sds[i]*rng.NormFloat64())
		}
		truth[s] = lo
	}
	slices.Sort(truth)
	iqr := z[0.75] - z[0.25]
	for _, p := range []float64{0.1, 0.25, 0.5, 0.75, 0.9} {
		fitted := -gq(1 - p) // f* = −g*: its p-quantile is −(the (1−p)-quantile of g)
		if got := quantile(draws, p); math.Abs(got-fitted) > 0.03*iqr {
			t.Errorf("%g-quantile of the draws %.4f, fitted Gumbel %.4f", p, got, fitted)
		}
		tol := 0.05 * iqr // Monte Carlo error ≈ 0.01·IQR; the Gumbel fit is exact at the median and IQR
		if p == 0.1 || p == 0.9 {
			tol = 0.25 * iqr // the tails are where the Gumbel shape is only an approximation
		}
		if got, want := quantile(draws, p), quantile(truth, p); math.Abs(got-want) > tol {
			t.Errorf("%g-quantile of the draws %.4f, true minimum %.4f (tol %.4f)", p, got, want, tol)
		}
	}

	best := quantile(truth, 0.5)
	for _, v := range GumbelMinima(means, sds, 500, best, rng) {
		if v > best-1e-6 {
			t.Fatalf("draw %v above the cap %v", v, best-1e-6)
		}
	}
	if got := GumbelMinima(means, sds, 0, math.Inf(1), rng); len(got) != DefaultMESSamples {
		t.Errorf("K = 0 gave %d samples, want %d", len(got), DefaultMESSamples)
	}
	known := GumbelMinima([]float64{3, 2, 5}, []float64{0, 0, 0}, 3, math.Inf(1), rng)
	if !slices.Equal(known, []float64{2, 2, 2}) {
		t.Errorf("minima of exactly known values: %v, want all 2", known)
	}
}
