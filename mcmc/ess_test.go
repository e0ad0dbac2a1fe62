package mcmc

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gauss2 is the log density, up to a constant, of N(a, B) in 2-D, B given
// by its inverse P.
func gauss2(a [2]float64, P [2][2]float64) func(u []float64) float64 {
	return func(u []float64) float64 {
		d0, d1 := u[0]-a[0], u[1]-a[1]
		return -0.5 * (P[0][0]*d0*d0 + 2*P[0][1]*d0*d1 + P[1][1]*d1*d1)
	}
}

// inv2 inverts a symmetric 2×2 matrix.
func inv2(m [2][2]float64) [2][2]float64 {
	det := m[0][0]*m[1][1] - m[0][1]*m[1][0]
	return [2][2]float64{{m[1][1] / det, -m[0][1] / det}, {-m[1][0] / det, m[0][0] / det}}
}

// batchMean returns the mean of v and its standard error by batch means
// over nb batches, which accounts for the chain's autocorrelation (spec
// §10 as corrected: autocorrelation-aware standard errors).
func batchMean(v []float64, nb int) (mean, se float64) {
	size := len(v) / nb
	bm := make([]float64, nb)
	for b := range bm {
		for _, x := range v[b*size : (b+1)*size] {
			bm[b] += x
		}
		bm[b] /= float64(size)
		mean += bm[b]
	}
	mean /= float64(nb)
	var ss float64
	for _, x := range bm {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(nb-1) / float64(nb))
}

// TestESSGaussianPosterior is the ESS test of spec §10: a correlated 2-D
// Gaussian likelihood N(u; a, B) times the prior N(m₀, diag(s²)) has the
// Gaussian posterior with precision S⁻¹ + B⁻¹ and mean
// (S⁻¹ + B⁻¹)⁻¹(S⁻¹m₀ + B⁻¹a). After 20,000 samples the sample mean and
// covariance must lie within 3 batch-means standard errors of it; the
// prior's moments, a wrong answer, must not.
func TestESSGaussianPosterior(t *testing.T) {
	a := [2]float64{1.5, -0.5}
	B := [2][2]float64{{0.5, 0.3}, {0.3, 0.8}}
	Bi := inv2(B)
	m0 := []float64{0, 1}
	sd := []float64{1, 2}
	e := &ESS{Mean: m0, SD: sd, LogLik: gauss2(a, Bi)}
	var P [2][2]float64
	for i := range 2 {
		for j := range 2 {
			P[i][j] = Bi[i][j]
		}
		P[i][i] += 1 / (sd[i] * sd[i])
	}
	C := inv2(P)
	var rhs [2]float64
	for i := range 2 {
		rhs[i] = m0[i]/(sd[i]*sd[i]) + Bi[i][0]*a[0] + Bi[i][1]*a[1]
	}
	mu := [2]float64{C[0][0]*rhs[0] + C[0][1]*rhs[1], C[1][0]*rhs[0] + C[1][1]*rhs[1]}

	c, err := e.Start([]float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	s := e.Run(c, 300, n, 1, rand.New(rand.NewPCG(1, 2)))
	if len(s) != n {
		t.Fatalf("Run returned %d samples, want %d", len(s), n)
	}
	col := func(f func(u []float64) float64) []float64 {
		v := make([]float64, n)
		for i, u := range s {
			v[i] = f(u)
		}
		return v
	}
	const nb = 50
	check := func(name string, v []float64, want, wrong float64) {
		t.Helper()
		m, se := batchMean(v, nb)
		if math.Abs(m-want) > 3*se {
			t.Errorf("%s = %.4f ± %.4f, analytic %.4f (%.1f standard errors away)", name, m, se, want, math.Abs(m-want)/se)
		}
		if math.Abs(m-wrong) <= 3*se {
			t.Errorf("%s = %.4f ± %.4f cannot tell the posterior %.4f from the prior's %.4f", name, m, se, want, wrong)
		}
		t.Logf("%s = %.4f ± %.4f (analytic %.4f)", name, m, se, want)
	}
	x0, x1 := col(func(u []float64) float64 { return u[0] }), col(func(u []float64) float64 { return u[1] })
	check("mean[0]", x0, mu[0], m0[0])
	check("mean[1]", x1, mu[1], m0[1])
	// Centred at the analytic mean, so that each entry is a plain mean
	// (centring at the sample mean changes it by O(1/n), far below the SE).
	check("cov[0][0]", col(func(u []float64) float64 { return (u[0] - mu[0]) * (u[0] - mu[0]) }), C[0][0], sd[0]*sd[0])
	check("cov[0][1]", col(func(u []float64) float64 { return (u[0] - mu[0]) * (u[1] - mu[1]) }), C[0][1], 0)
	check("cov[1][1]", col(func(u []float64) float64 { return (u[1] - mu[1]) * (u[1] - mu[1]) }), C[1][1], sd[1]*sd[1])
	if c.Steps != 300+n || c.Rejected != 0 {
		t.Errorf("chain made %d steps with %d rejections, want %d and 0", c.Steps, c.Rejected, 300+n)
	}
}

// TestESSZeroLikelihoodStart: a start of zero likelihood (−Inf or NaN)
// is refused, as is a malformed prior.
func TestESSZeroLikelihoodStart(t *testing.T) {
	half := func(u []float64) float64 {
		if u[0] > 0 {
			return 0
		}
		return math.Inf(-1)
	}
	e := &ESS{Mean: []float64{0, 0}, SD: []float64{1, 1}, LogLik: half}
	if _, err := e.Start([]float64{-1, 0}); err == nil {
		t.Error("Start accepted a point of zero likelihood")
	}
	nan := &ESS{Mean: []float64{0}, SD: []float64{1}, LogLik: func([]float64) float64 { return math.NaN() }}
	if _, err := nan.Start([]float64{0}); err == nil {
		t.Error("Start accepted a NaN likelihood")
	}
	if _, err := e.Start([]float64{1, 0}); err != nil {
		t.Errorf("Start refused a point of positive likelihood: %v", err)
	}
	bad := &ESS{Mean: []float64{0, 0}, SD: []float64{1, 0}, LogLik: half}
	if _, err := bad.Start([]float64{1, 0}); err == nil {
		t.Error("Start accepted a prior with sd 0")
	}
	short := &ESS{Mean: []float64{0, 0}, SD: []float64{1, 1}, LogLik: half}
	if _, err := short.Start([]float64{1}); err == nil {
		t.Error("Start accepted a start of the wrong length")
	}
}

// TestESSHalfPlane: with L = 1 on u₀ > 0 and 0 elsewhere, the chain
// never leaves the half-plane, and it samples the prior truncated to it:
// for a standard normal, E[u₀ | u₀ > 0] = √(2/π).
func TestESSHalfPlane(t *testing.T) {
	e := &ESS{Mean: []float64{0, 0}, SD: []float64{1, 1}, LogLik: func(u []float64) float64 {
		if u[0] > 0 {
			return 0
		}
		return math.Inf(-1)
	}}
	c, err := e.Start([]float64{2, 0})
	if err != nil {
		t.Fatal(err)
	}
	s := e.Run(c, 0, 20000, 1, rand.New(rand.NewPCG(3, 4)))
	v := make([]float64, len(s))
	for i, u := range s {
		if !(u[0] > 0) {
			t.Fatalf("sample %d = %v left the half-plane u₀ > 0", i, u)
		}
		v[i] = u[0]
	}
	m, se := batchMean(v, 50)
	if want := math.Sqrt(2 / math.Pi); math.Abs(m-want) > 3*se {
		t.Errorf("E[u₀] = %.4f ± %.4f, truncated normal %.4f", m, se, want)
	}
}

// TestESSDeterministic: the same seed gives the same samples; another
// seed gives others. A continued chain equals one long run.
func TestESSDeterministic(t *testing.T) {
	e := &ESS{Mean: []float64{0, 0, 0}, SD: []float64{1, 2, 3}, LogLik: func(u []float64) float64 {
		return -math.Abs(u[0]-1) - 0.5*u[1]*u[1]*u[2]*u[2]
	}}
	run := func(seed uint64, parts ...int) [][]float64 {
		c, err := e.Start([]float64{1, 0, 0})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 9))
		var out [][]float64
		for _, n := range parts {
			out = append(out, e.Run(c, 0, n, 2, rng)...)
		}
		return out
	}
	eq := func(a, b [][]float64) bool { return slices.EqualFunc(a, b, slices.Equal[[]float64]) }
	a, b := run(7, 500), run(7, 500)
	if !eq(a, b) {
		t.Error("same seed, different samples")
	}
	if eq(a, run(8, 500)) {
		t.Error("different seeds, same samples")
	}
	if !eq(a, run(7, 200, 300)) {
		t.Error("a continued chain differs from one run")
	}
}
