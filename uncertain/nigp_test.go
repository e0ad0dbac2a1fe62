package uncertain

import (
	"math"
	"math/rand/v2"
	"testing"
)

// noisyTask returns n noisy-input observations of the chapter's 1-D task.
func noisyTask(rng *rand.Rand, n int, sigmaX float64) ([][]float64, []float64) {
	X, y := make([][]float64, n), make([]float64, n)
	for i := range X {
		x := 2*rng.Float64() - 1
		X[i] = []float64{x}
		y[i] = sinTask(x+sigmaX*rng.NormFloat64()) + 0.001*rng.NormFloat64()
	}
	return X, y
}

// TestNIGPZeroNoise: with Σ_x = 0 the slope term vanishes and NIGP is the
// standard RBF GP (spec §9). The refits start at the RBF optimum, so the
// agreement is to the optimiser's tolerance, not to rounding.
func TestNIGPZeroNoise(t *testing.T) {
	for _, d := range []int{1, 2} {
		rng := rand.New(rand.NewPCG(31, uint64(d)))
		X, y := testData(rng, 25, d)
		for i := range y {
			y[i] *= 0.3
		}
		sigmaX := make([]float64, d)
		ni := NewNIGP(Config{Rand: rand.New(rand.NewPCG(9, 9))})
		rbf := NewRBF(Config{Rand: rand.New(rand.NewPCG(9, 9))})
		if err := ni.Fit(X, y, sigmaX); err != nil {
			t.Fatal(err)
		}
		if err := rbf.Fit(X, y, sigmaX); err != nil {
			t.Fatal(err)
		}
		for _, s := range ni.SlopeNoise() {
			if s != 0 {
				t.Fatalf("d=%d: slope noise %v with Σ_x = 0", d, s)
			}
		}
		if got, want := ni.LogMarginalLikelihood(), rbf.LogMarginalLikelihood(); math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) || got < want-1e-9 {
			t.Errorf("d=%d: LML %v, RBF %v", d, got, want)
		}
		for range 10 {
			x := make([]float64, d)
			for i := range x {
				x[i] = 2*rng.Float64() - 1
			}
			m, v := ni.Predict(x)
			rm, rv := rbf.Predict(x)
			if math.Abs(m-rm) > 1e-4*math.Max(0.1, math.Abs(rm)) || math.Abs(v-rv) > 1e-3*rv+1e-9 {
				t.Errorf("d=%d: Predict(%v) = %v, %v; RBF %v, %v", d, x, m, v, rm, rv)
			}
		}
	}
}

// TestNIGPFit: on the 1-D task with σ_x = 0.1 the slope term is positive,
// the trace has one entry per round, and the slope noise adds variance
// that the standard GP attributes to the output noise or ignores.
func TestNIGPFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	X, y := noisyTask(rng, 30, 0.1)
	m := NewNIGP(Config{Rand: rand.New(rand.NewPCG(1, 2))})
	if err := m.Fit(X, y, []float64{0.1}); err != nil {
		t.Fatal(err)
	}
	tr := m.Trace()
	if len(tr) != NIGPRounds {
		t.Fatalf("trace of %d rounds, want %d", len(tr), NIGPRounds)
	}
	var pos int
	for _, s := range m.SlopeNoise() {
		if s < 0 || math.IsNaN(s) {
			t.Fatalf("slope noise %v", s)
		}
		if s > 0 {
			pos++
		}
	}
	if pos == 0 {
		t.Error("no positive slope noise with σ_x = 0.1")
	}
	if tr[0] <= 0 {
		t.Errorf("first round changed the slope noise by %v", tr[0])
	}
	mu, v := m.Predict([]float64{0.2})
	if math.IsNaN(mu) || !(v > 0) {
		t.Errorf("Predict = %v, %v", mu, v)
	}
	t.Logf("trace %.3g; params %.3g", tr, m.Params())
}

// TestStandardFit: the baselines fit raw y (zero mean: far from the data
// the RBF's mean reverts to 0, not to the sample mean) and ignore σ_x.
func TestStandardFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	X, y := noisyTask(rng, 20, 0.05)
	for i := range y {
		y[i] += 5 // a large offset a standardised GP would remove
	}
	for _, m := range []*Standard{NewRBF(Config{Rand: rand.New(rand.NewPCG(1, 1))}), NewRQ(Config{Rand: rand.New(rand.NewPCG(1, 1))})} {
		if err := m.Fit(X, y, []float64{0.05}); err != nil {
			t.Fatal(err)
		}
		a, _ := m.Predict([]float64{0.3})
		if math.Abs(a-5-sinTask(0.3)) > 0.1 {
			t.Errorf("%s: Predict(0.3) = %v, want ≈ %v", m.Name(), a, 5+sinTask(0.3))
		}
		m2 := NewRBF(Config{Rand: rand.New(rand.NewPCG(1, 1))})
		if m.Name() == "rbf" {
			// Only the RBF: an RQ with a small shape α has tails too heavy
			// to revert within any finite distance tested here.
			if far, _ := m.Predict([]float64{100}); math.Abs(far) > 1e-6 {
				t.Errorf("%s: mean far from the data %v, want the zero prior mean", m.Name(), far)
			}
			if err := m2.Fit(X, y, []float64{0}); err != nil {
				t.Fatal(err)
			}
			if m2.LogMarginalLikelihood() != m.LogMarginalLikelihood() {
				t.Errorf("σ_x changed the RBF fit: LML %v vs %v", m2.LogMarginalLikelihood(), m.LogMarginalLikelihood())
			}
		}
	}
}
