package entropy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randomMixture draws M components with means ~ N(0, spread²) and
// standard deviations log-uniform in [sdLo, sdHi], equal weights.
func randomMixture(rng *rand.Rand, m int, spread, sdLo, sdHi float64) Mixture {
	q := Mixture{Mean: make([]float64, m), Var: make([]float64, m)}
	for j := range m {
		q.Mean[j] = spread * rng.NormFloat64()
		sd := sdLo * math.Pow(sdHi/sdLo, rng.Float64())
		q.Var[j] = sd * sd
	}
	return q
}

// A single Gaussian has H = ½ log(2πe v): quadrature, moment matching,
// Huber (exact for one component) and MEMe all recover it.
func TestSingleGaussianClosedForm(t *testing.T) {
	for _, v := range []float64{1e-4, 0.3, 1, 25} {
		q := Mixture{Mean: []float64{1.7}, Var: []float64{v}}
		want := GaussianEntropy(v)
		for name, got := range map[string]float64{
			"quad":  q.Quadrature(1e-8),
			"mm":    q.MomentMatching(),
			"huber": q.Huber(),
			"memeL": q.MEMe(10, true),
		} {
			if d := math.Abs(got - want); d > 1e-6 {
				t.Errorf("v=%g %s: H = %.10f, want %.10f (|diff| %.2g)", v, name, got, want, d)
			}
		}
	}
}

// The quadrature at the default tolerance agrees with a tol-1e-8 reference
// to within its tolerance, and the tol-1e-8 value with a brute-force
// composite Simpson rule on 200,000 panels (spec Corrections, Tests).
func TestQuadratureAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		q := randomMixture(rng, 1+rng.IntN(40), 2, 0.05, 1.5)
		ref := q.Quadrature(1e-8)
		if got := q.Quadrature(1e-4); math.Abs(got-ref) > 1e-4 {
			t.Errorf("trial %d: tol 1e-4 gives %.8f, reference %.8f", trial, got, ref)
		}
		if got := q.Quadrature(1e-6); math.Abs(got-ref) > 1e-6 {
			t.Errorf("trial %d: tol 1e-6 gives %.10f, reference %.10f", trial, got, ref)
		}
		if trial < 3 {
			b := q.breaks()
			lo, hi := b[0], b[len(b)-1]
			p := q.prepare()
			n := 40000
			h := (hi - lo) / float64(n)
			s := p.negQLogQ(lo) + p.negQLogQ(hi)
			for i := 1; i < n; i++ {
				c := 2.0
				if i%2 == 1 {
					c = 4
				}
				s += c * p.negQLogQ(lo+float64(i)*h)
			}
			brute := s * h / 3
			if math.Abs(brute-ref) > 1e-8 {
				t.Errorf("trial %d: reference %.12f, brute-force Simpson %.12f", trial, ref, brute)
			}
		}
	}
}

// Moment matching bounds the entropy from above (maximum-entropy property)
// [000 Eqs. 3.14–3.15; spec §10], to the quadrature's tolerance.
func TestMomentMatchingUpperBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		q := randomMixture(rng, 1+rng.IntN(30), 3*rng.Float64(), 0.01, 2)
		if trial%2 == 0 {
			q.Weight = make([]float64, q.Len())
			for j := range q.Weight {
				q.Weight[j] = rng.Float64()
			}
		}
		quad, mm := q.Quadrature(1e-6), q.MomentMatching()
		if mm < quad-1e-6 {
			t.Errorf("trial %d: MM %.8f below quadrature %.8f", trial, mm, quad)
		}
	}
}

// Monte Carlo converges: its error against the quadrature shrinks with n
// and is within 4 standard errors at n = 20,000 per component.
func TestMonteCarloConverges(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	q := randomMixture(rng, 5, 1.5, 0.2, 1)
	ref := q.Quadrature(1e-10)
	var errSmall, errBig float64
	const reps = 20
	for range reps {
		errSmall += math.Abs(q.MonteCarlo(20, rng) - ref)
		errBig += math.Abs(q.MonteCarlo(2000, rng) - ref)
	}
	errSmall /= reps
	errBig /= reps
	// The error falls like 1/√n: ×100 samples, ÷10 error; ask for ÷4.
	if errBig > errSmall/4 {
		t.Errorf("MC error %.3g at n=2000 not well below %.3g at n=20", errBig, errSmall)
	}
	// Standard error of −log q over the mixture.
	w := q.weights()
	p := q.prepare()
	var m1, m2 float64
	ns := 0
	for j := range w {
		for range 2000 {
			y := q.Mean[j] + math.Sqrt(q.Var[j])*rng.NormFloat64()
			l := p.logDensity(y)
			m1 += w[j] * l
			m2 += w[j] * l * l
			ns++
		}
	}
	m1 /= 2000
	m2 /= 2000
	se := math.Sqrt((m2 - m1*m1) / float64(20000*len(w)))
	if got := q.MonteCarlo(20000, rng); math.Abs(got-ref) > 4*se {
		t.Errorf("MC n=20000: %.6f, quadrature %.6f, 4 se = %.2g", got, ref, 4*se)
	}
}

// truncatedEntropy is the entropy of q truncated to [lo, hi] and
// renormalised, the quantity MEMe bounds (Eq. A.10 with the truncation of
// the spec's Corrections).
func truncatedEntropy(q Mixture, lo, hi float64) float64 {
	p := q.prepare()
	out := make([]float64, 2)
	Integrate(func(y float64, v []float64) {
		d := p.density(y)
		v[0] = d
		if d >= tiny {
			v[1] = -d * math.Log(d)
		}
	}, Grid(lo, hi, 64), 1e-12, out)
	return out[1]/out[0] + math.Log(out[0])
}

// On easy mixtures (components overlapping, similar widths) Huber is
// within 5 % of the quadrature value and MEMe within 1e-3; MEMe never
// falls below the entropy of the truncated mixture it bounds (Eq. A.10).
func TestHuberAndMEMeOnEasyMixtures(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 15 {
		q := randomMixture(rng, 2+rng.IntN(20), 0.3, 0.8, 1.2)
		ref := q.Quadrature(1e-10)
		if h := q.Huber(); math.Abs(h-ref) > 0.05*math.Abs(ref) {
			t.Errorf("trial %d: Huber %.5f, quadrature %.5f", trial, h, ref)
		}
		m, v := q.Moments()
		sd := math.Sqrt(v)
		trunc := truncatedEntropy(q, m-6*sd, m+6*sd)
		for _, c := range []struct {
			m   int
			leg bool
		}{{10, true}, {30, true}, {10, false}} {
			h := q.MEMe(c.m, c.leg)
			if math.Abs(h-ref) > 1e-3 {
				t.Errorf("trial %d: MEMe(%d, %v) %.6f, quadrature %.6f", trial, c.m, c.leg, h, ref)
			}
			if h < trunc-1e-8 {
				t.Errorf("trial %d: MEMe(%d, %v) %.10f below the truncated entropy %.10f", trial, c.m, c.leg, h, trunc)
			}
		}
	}
}

// Huber's F is (log q)” at the component means: the estimate equals
// −Σ w_j [log q(μ_j) + ½ v_j (log q)”(μ_j)] with the second derivative
// by central differences.
func TestHuberSecondDerivative(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	q := randomMixture(rng, 6, 1, 0.3, 1)
	q.Weight = []float64{1, 2, 3, 1, 2, 3}
	w := q.weights()
	p := q.prepare()
	var want float64
	const h = 1e-4
	for j, mu := range q.Mean {
		l := p.logDensity(mu)
		d2 := (p.logDensity(mu+h) - 2*l + p.logDensity(mu-h)) / (h * h)
		want -= w[j] * (l + 0.5*q.Var[j]*d2)
	}
	if got := q.Huber(); math.Abs(got-want) > 1e-5 {
		t.Errorf("Huber %.8f, by finite differences %.8f", got, want)
	}
}

// A bimodal mixture that moment matching overestimates badly is recovered
// by MEMeL-30 and the quadrature.
func TestMEMeBimodal(t *testing.T) {
	q := Mixture{Mean: []float64{-3, 3}, Var: []float64{0.5, 0.5}}
	ref := q.Quadrature(1e-10)
	// Well separated: H ≈ log 2 + ½ log(2πe·0.5).
	if want := math.Ln2 + GaussianEntropy(0.5); math.Abs(ref-want) > 1e-4 {
		t.Fatalf("quadrature %.6f, separated-mixture value %.6f", ref, want)
	}
	mm := q.MomentMatching()
	meme := q.MEMe(30, true)
	if !(math.Abs(meme-ref) < 0.1*(mm-ref)) {
		t.Errorf("MEMeL-30 %.5f not much closer than MM %.5f to %.5f", meme, mm, ref)
	}
}

// The truncated Legendre and power moments match adaptive Simpson
// integrals of the same functions.
func TestComponentMoments(t *testing.T) {
	for _, c := range [][2]float64{{0.5, 1.0 / 12}, {0.1, 0.02}, {0.95, 0.08}, {-0.05, 0.03}, {0.5, 0.001}} {
		for _, leg := range []bool{true, false} {
			got := make([]float64, 31)
			componentMoments(c[0], c[1], leg, got)
			want := make([]float64, 31)
			b := make([]float64, 31)
			Integrate(func(z float64, v []float64) {
				basis(z, leg, b)
				d := math.Exp(-0.5*(z-c[0])*(z-c[0])/(c[1]*c[1])) / (c[1] * math.Sqrt(2*math.Pi))
				for k := range b {
					v[k] = d * b[k]
				}
			}, Grid(0, 1, 256), 1e-13, want)
			for k := range got {
				if math.Abs(got[k]-want[k]) > 1e-10 {
					t.Errorf("μ=%g s=%g legendre=%v: moment %d = %.10f, brute force %.10f", c[0], c[1], leg, k, got[k], want[k])
				}
			}
		}
	}
}

// Weights are honoured: doubling every weight changes nothing, and a
// zero weight removes its component.
func TestWeights(t *testing.T) {
	q := Mixture{Mean: []float64{0, 2, 9}, Var: []float64{1, 0.5, 3}, Weight: []float64{1, 3, 0}}
	r := Mixture{Mean: []float64{0, 2}, Var: []float64{1, 0.5}, Weight: []float64{2, 6}}
	for name, f := range map[string]func(Mixture) float64{
		"quad":  func(m Mixture) float64 { return m.Quadrature(1e-9) },
		"mm":    Mixture.MomentMatching,
		"huber": Mixture.Huber,
		"memeL": func(m Mixture) float64 { return m.MEMe(10, true) },
	} {
		if name == "quad" || name == "memeL" {
			// The interval and truncation depend on the zero-weight component.
			if d := math.Abs(f(q) - f(r)); d > 1e-6 {
				t.Errorf("%s: %g vs %g", name, f(q), f(r))
			}
			continue
		}
		if d := math.Abs(f(q) - f(r)); d > 1e-12 {
			t.Errorf("%s: %g vs %g", name, f(q), f(r))
		}
	}
}

// QuadratureGrad's derivatives with respect to the component means and
// variances (θ = (μ_1..μ_M, v_1..v_M), weighted) match central finite
// differences of Quadrature, and its value matches Quadrature's.
func TestQuadratureGrad(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	q := randomMixture(rng, 5, 1, 0.3, 1)
	q.Weight = []float64{1, 2, 1, 3, 1}
	M := q.Len()
	dMean, dVar := make([][]float64, M), make([][]float64, M)
	for j := range M {
		dMean[j], dVar[j] = make([]float64, 2*M), make([]float64, 2*M)
		dMean[j][j], dVar[j][M+j] = 1, 1
	}
	grad := make([]float64, 2*M)
	h0 := q.QuadratureGrad(dMean, dVar, 1e-12, grad)
	if ref := q.Quadrature(1e-12); math.Abs(h0-ref) > 1e-10 {
		t.Errorf("QuadratureGrad value %.12f, Quadrature %.12f", h0, ref)
	}
	const h = 1e-5
	for k := range 2 * M {
		field := q.Mean
		if k >= M {
			field = q.Var
		}
		i := k % M
		orig := field[i]
		field[i] = orig + h
		hp := q.Quadrature(1e-12)
		field[i] = orig - h
		hm := q.Quadrature(1e-12)
		field[i] = orig
		if fd := (hp - hm) / (2 * h); math.Abs(fd-grad[k]) > 1e-6 {
			t.Errorf("θ_%d: ∂H = %.9f, finite differences %.9f", k, grad[k], fd)
		}
	}
}
