package gp

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/boaopt/boa/kernel"
)

// gpDraw draws y = f(X) + noise with f from a GP with kernel k.
func gpDraw(X [][]float64, k kernel.Kernel, noise float64, rng *rand.Rand) []float64 {
	// Sample through a zero-data model: condition on one far-away point
	// with huge noise, which leaves the prior essentially unchanged.
	far := make([]float64, len(X[0]))
	for i := range far {
		far[i] = 1e3
	}
	g, err := New([][]float64{far}, []float64{0}, k, 1)
	if err != nil {
		panic(err)
	}
	s, err := g.Sample(X, 1, rng)
	if err != nil {
		panic(err)
	}
	y := s[0]
	for i := range y {
		y[i] += math.Sqrt(noise) * rng.NormFloat64()
	}
	return y
}

func TestFitRecoversLengthscale(t *testing.T) {
	for _, tc := range []struct {
		fam kernel.Family
		ls  float64
	}{
		{kernel.RBF, 0.15},
		{kernel.Matern52, 0.3},
	} {
		rng := rand.New(rand.NewPCG(41, uint64(tc.fam)))
		X := randPoints(80, 2, rng)
		truth := kernel.NewStationary(tc.fam, 2, false)
		truth.SetLengthscales([]float64{tc.ls})
		y := gpDraw(X, truth, 1e-3, rng)
		g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(tc.fam, 2, false), Rand: rng})
		if err != nil {
			t.Fatal(err)
		}
		ls := g.Kernel().(*kernel.Stationary).Lengthscales()[0]
		if ls < tc.ls/2 || ls > 2*tc.ls {
			t.Errorf("%v: fitted lengthscale %v, true %v", tc.fam, ls, tc.ls)
		}
		if g.Noise() > 0.05 {
			t.Errorf("%v: fitted noise %v for nearly noiseless data", tc.fam, g.Noise())
		}
		// The fitted LML beats the defaults and a stationary point has a
		// small projected gradient.
		d, _ := New(X, y, kernel.NewStationary(tc.fam, 2, false), 1e-3)
		if g.LogMarginal() < d.LogMarginal() {
			t.Errorf("%v: fitted LML %v < default LML %v", tc.fam, g.LogMarginal(), d.LogMarginal())
		}
	}
}

func TestFitDeterministicAndWarm(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	X, y := randData(40, 3, rng)
	cfg := func(seed uint64) Config {
		return Config{Kernel: kernel.NewStationary(kernel.Matern52, 3, true), Rand: rand.New(rand.NewPCG(seed, 1))}
	}
	a, err := Fit(X, y, cfg(7))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Fit(X, y, cfg(7))
	pa, pb := a.Params(), b.Params()
	for i := range pa {
		if pa[i] != pb[i] {
			t.Fatalf("same seed, different params: %v vs %v", pa, pb)
		}
	}
	// Bounds are respected.
	k := kernel.NewStationary(kernel.Matern52, 3, true)
	for i, bd := range k.Bounds() {
		if pa[i] < bd.Lo || pa[i] > bd.Hi {
			t.Errorf("param %d = %v outside %v", i, pa[i], bd)
		}
	}
	if nz := pa[len(pa)-1]; nz < math.Log(1e-6)-1e-12 || nz > 1e-12 {
		t.Errorf("log noise %v outside the default bound", nz)
	}
	// Warm start alone (Restarts = 1) stays at least as good.
	c := cfg(8)
	c.Warm, c.Restarts = a.Params(), 1
	w, err := Fit(X, y, c)
	if err != nil {
		t.Fatal(err)
	}
	if w.LogMarginal() < a.LogMarginal()-1e-6*math.Abs(a.LogMarginal()) {
		t.Errorf("warm-started LML %v < previous %v", w.LogMarginal(), a.LogMarginal())
	}
	// The warm start survives screening.
	c.Restarts = 10
	if w, err = Fit(X, y, c); err != nil || w.LogMarginal() < a.LogMarginal()-1e-6*math.Abs(a.LogMarginal()) {
		t.Errorf("warm-started fit with restarts: %v, LML %v < %v", err, w.LogMarginal(), a.LogMarginal())
	}
}

func TestFitFixNoiseAndMAP(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 46))
	X, y := randData(30, 2, rng)
	g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.RBF, 2, true), Noise: 0.05, FixNoise: true, Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	if g.Noise() != 0.05 {
		t.Errorf("fixed noise changed to %v", g.Noise())
	}
	// A tight prior pins the lengthscales.
	priors := []Prior{LogNormalPrior(math.Log(0.5), 1e-4), LogNormalPrior(math.Log(0.5), 1e-4), GammaPrior(1, 0.001)}
	g, err = Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.RBF, 2, true), Priors: priors, Rand: rng})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range g.Kernel().(*kernel.Stationary).Lengthscales() {
		if math.Abs(l-0.5) > 0.02 {
			t.Errorf("MAP lengthscale %v, prior pins it at 0.5", l)
		}
	}
}

func TestFitStandardization(t *testing.T) {
	X := [][]float64{{0.1}, {0.4}, {0.8}}
	g, err := Fit(X, []float64{5, 5, 5}, Config{Kernel: kernel.NewStationary(kernel.Matern52, 1, false), Restarts: 2})
	if err != nil {
		t.Fatal(err)
	}
	if off, sd := g.Standardization(); off != 5 || sd != 1 {
		t.Errorf("constant targets: offset %v, sd %v", off, sd)
	}
	if m, _ := g.Predict([]float64{0.5}); math.Abs(m-5) > 1e-9 {
		t.Errorf("mean %v, want 5", m)
	}
}

// indefinite is a deliberately invalid kernel: k(x,x) = 1, k(x,y) = −1, so
// K = 2I − J has eigenvalue 2 − n < 0 that no jitter ≤ 0.1 can fix.
type indefinite struct{}

func (indefinite) NumParams() int                      { return 0 }
func (indefinite) Params(dst []float64) []float64      { return dst[:0] }
func (indefinite) SetParams([]float64)                 {}
func (indefinite) Bounds() []kernel.Bound              { return nil }
func (indefinite) ParamGrad(x, y, _ []float64) float64 { return indefinite{}.Eval(x, y) }
func (indefinite) Clone() kernel.Kernel                { return indefinite{} }
func (indefinite) InputGrad(x, y, dst []float64) float64 {
	clear(dst)
	return indefinite{}.Eval(x, y)
}
func (indefinite) Eval(x, y []float64) float64 {
	if x[0] == y[0] {
		return 1
	}
	return -1
}

func TestNotPositiveDefinite(t *testing.T) {
	X := [][]float64{{0.1, 0.2}, {0.1, 0.2}, {0.5, 0.5}, {0.5, 0.5}}
	y := []float64{1, 1.1, 2, 2.1}

	// Exact duplicates with zero noise: the jitter rescues the fit, or the
	// error is the documented one. Never a panic.
	g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.Matern52, 2, true), FixNoise: true, Rand: rand.New(rand.NewPCG(1, 2))})
	switch {
	case err != nil && !errors.Is(err, ErrNotPositiveDefinite):
		t.Errorf("duplicates: unexpected error %v", err)
	case err == nil && g.Jitter() == 0:
		t.Errorf("duplicates without noise factorised without jitter")
	}

	// A kernel with NaN parameters.
	nan := kernel.NewStationary(kernel.RBF, 2, false)
	nan.SetParams([]float64{math.NaN(), 0})
	if _, err := New(X, y, nan, 0.1); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("NaN kernel with New: %v", err)
	}
	// Fit starts from the box midpoint instead of a NaN coordinate
	// (opt.BoxLBFGS), so it either fails cleanly or ends at finite values.
	if g, err := Fit(X, y, Config{Kernel: nan, Restarts: 1}); err == nil {
		for _, p := range g.Params() {
			if math.IsNaN(p) {
				t.Errorf("NaN kernel with Fit: fitted params %v", g.Params())
			}
		}
	}

	// A matrix that no jitter can fix.
	Z := [][]float64{{0}, {1}, {2}, {3}}
	_, err = New(Z, y, indefinite{}, 0)
	if !errors.Is(err, ErrNotPositiveDefinite) || !strings.Contains(err.Error(), "jitter") {
		t.Errorf("indefinite kernel with New: %v", err)
	}
	if _, err := Fit(Z, y, Config{Kernel: indefinite{}, FixNoise: true, Restarts: 1}); !errors.Is(err, ErrNotPositiveDefinite) {
		t.Errorf("indefinite kernel with Fit: %v", err)
	}

	// Non-finite inputs and targets are input errors.
	bad := [][]float64{{0.1, math.NaN()}, {0.2, 0.3}}
	if _, err := Fit(bad, []float64{1, 2}, Config{Kernel: kernel.NewStationary(kernel.RBF, 2, true), Restarts: 1}); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Errorf("NaN input: %v", err)
	}
	if _, err := New(X[:2], []float64{1, math.Inf(1)}, kernel.NewStationary(kernel.RBF, 2, true), 0.1); err == nil || !strings.Contains(err.Error(), "not finite") {
		t.Errorf("Inf target: %v", err)
	}
}

func TestFitConfigErrors(t *testing.T) {
	X := [][]float64{{0.1}, {0.5}, {0.9}}
	y := []float64{1, 2, 3}
	k := kernel.NewStationary(kernel.RBF, 1, false)
	cases := map[string]struct {
		X   [][]float64
		y   []float64
		cfg Config
	}{
		"nil kernel":       {X, y, Config{}},
		"no rand":          {X, y, Config{Kernel: k}},
		"warm length":      {X, y, Config{Kernel: k, Warm: []float64{0}, Restarts: 1}},
		"warm NaN":         {X, y, Config{Kernel: k, Warm: []float64{0, 0, math.NaN()}, Restarts: 1}},
		"priors length":    {X, y, Config{Kernel: k, Priors: []Prior{nil}, Restarts: 1}},
		"noise bound":      {X, y, Config{Kernel: k, NoiseBound: kernel.Bound{Lo: 0, Hi: 1}, Restarts: 1}},
		"negative noise":   {X, y, Config{Kernel: k, Noise: -1, Restarts: 1}},
		"no data":          {nil, nil, Config{Kernel: k, Restarts: 1}},
		"length mismatch":  {X, y[:2], Config{Kernel: k, Restarts: 1}},
		"ragged":           {[][]float64{{0.1}, {0.2, 0.3}}, y[:2], Config{Kernel: k, Restarts: 1}},
		"kernel dimension": {[][]float64{{0.1, 0.2}}, y[:1], Config{Kernel: k, Restarts: 1}},
	}
	for name, c := range cases {
		if _, err := Fit(c.X, c.y, c.cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestHugeTargetsKeepPredictionsFinite: a target of 1e300 (a diverged run)
// is clipped to ±maxTarget, so that the posterior on the original scale,
// whose variance is sd² times a standardised one, stays finite.
func TestHugeTargetsKeepPredictionsFinite(t *testing.T) {
	X := [][]float64{{0}, {0.25}, {0.5}, {0.75}, {1}}
	y := []float64{0.3, 0.1, 1e300, 0.2, -0.1}
	g, err := Fit(X, y, Config{Kernel: kernel.NewStationary(kernel.Matern52, 1, false), Rand: rand.New(rand.NewPCG(1, 1))})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{0, 0.1, 0.5, 0.9} {
		mean, v := g.Predict([]float64{x})
		if math.IsNaN(mean) || math.IsInf(mean, 0) || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("Predict(%v) = %v, %v; want finite", x, mean, v)
		}
	}
}

// With Config.Raw the targets are not standardised: far from the data the
// mean returns to the prior mean 0 and the variance to the kernel's signal
// variance on the scale of y (scikit-learn's normalize_y=False), where a
// standardised fit returns to the data's mean.
func TestFitRaw(t *testing.T) {
	X := [][]float64{{0.1}, {0.2}, {0.3}, {0.4}}
	y := []float64{100, 102, 101, 103}
	k := kernel.NewStationary(kernel.RBF, 1, false)
	k.SetLengthscales([]float64{0.1})
	k.SetBounds(kernel.Bound{Lo: 1e-5, Hi: 1e5}, kernel.Bound{Lo: 1, Hi: 1})
	raw, err := Fit(X, y, Config{Kernel: k, Noise: 1e-10, FixNoise: true, Restarts: 1, Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if off, sc := raw.Standardization(); off != 0 || sc != 1 {
		t.Errorf("Raw: standardisation (%g, %g), want (0, 1)", off, sc)
	}
	if m, v := raw.Predict([]float64{1e4}); math.Abs(m) > 1e-9 || math.Abs(v-1) > 1e-9 {
		t.Errorf("Raw: far from the data mean %g, variance %g; want 0, 1", m, v)
	}
	std, err := Fit(X, y, Config{Kernel: k, Noise: 1e-10, FixNoise: true, Restarts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := std.Predict([]float64{1e4}); math.Abs(m-101.5) > 1e-9 {
		t.Errorf("standardised: far from the data mean %g, want the data's mean 101.5", m)
	}
}
