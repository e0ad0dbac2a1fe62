package mixed

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBetaMoments checks the Marsaglia–Tsang gamma and the Beta built on it
// against their means and variances, for shapes above and below 1.
func TestBetaMoments(t *testing.T) {
	const n = 100000
	rng := rand.New(rand.NewPCG(3, 4))
	for _, ab := range [][2]float64{{1, 30}, {1, 17.0 / 3}, {1, 3.0 / 7}, {1, 2.0 / 7}, {0.5, 0.5}, {2.5, 4}} {
		a, b := ab[0], ab[1]
		var s, s2 float64
		for range n {
			v := betaVariate(rng, a, b)
			if !(v >= 0 && v <= 1) {
				t.Fatalf("Beta(%g, %g) drew %g", a, b, v)
			}
			s += v
			s2 += v * v
		}
		mean, vr := s/n, s2/n-(s/n)*(s/n)
		wm := a / (a + b)
		wv := a * b / ((a + b) * (a + b) * (a + b + 1))
		if math.Abs(mean-wm) > 5*math.Sqrt(wv/n) || math.Abs(vr-wv) > 0.03*wv {
			t.Errorf("Beta(%g, %g): mean %.5f var %.5f, want %.5f %.5f", a, b, mean, vr, wm, wv)
		}
	}
	for _, a := range []float64{0.3, 1, 7.5} {
		var s, s2 float64
		for range n {
			v := gammaVariate(rng, a)
			s += v
			s2 += v * v
		}
		mean, vr := s/n, s2/n-(s/n)*(s/n)
		if math.Abs(mean-a) > 5*math.Sqrt(a/n) || math.Abs(vr-a) > 0.05*a {
			t.Errorf("Gamma(%g): mean %.4f var %.4f, want %g %g", a, mean, vr, a, a)
		}
	}
}

// randomH draws uniform category indices.
func randomH(rng *rand.Rand, levels []int) []int {
	h := make([]int, len(levels))
	for i, l := range levels {
		h[i] = rng.IntN(l)
	}
	return h
}

// TestPestDeterministic checks that Pest Control and DifficultPest repeat
// their value [spec §6.4 Decision, §8] and stay in their range: the price
// paid is at most 1 per stage and the fraction above threshold at most 1.
func TestPestDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name   string
		stages int
	}{{"pest", 25}, {"difficultpest", 80}} {
		p := mustGet(t, tc.name)
		if len(p.Levels()) != tc.stages || p.Levels()[0] != 5 {
			t.Fatalf("%s: levels %v, want %d × 5", tc.name, p.Levels(), tc.stages)
		}
		if _, ok := p.Optimum(); ok {
			t.Errorf("%s: optimum reported known", tc.name)
		}
		again := mustGet(t, tc.name)
		for range 5 {
			a := p.Assignment(randomH(rng, p.Levels()), nil)
			f1, err := p.Evaluate(a, rng)
			if err != nil {
				t.Fatal(err)
			}
			f2, _ := again.Evaluate(a, rand.New(rand.NewPCG(9, 9)))
			f3, _ := p.Evaluate(a, nil)
			if f1 != f2 || f1 != f3 {
				t.Errorf("%s: %v, %v, %v from the same schedule", tc.name, f1, f2, f3)
			}
			if f1 < 0 || f1 > 2*float64(tc.stages) {
				t.Errorf("%s: %v outside [0, %d]", tc.name, f1, 2*tc.stages)
			}
		}
		// Without pesticide nothing is paid and the pest spreads: the cost is
		// the number of stages above threshold, so below n and near it.
		none := p.Value(make([]int, tc.stages), nil)
		if none > float64(tc.stages) || none < 0.8*float64(tc.stages) {
			t.Errorf("%s: no pesticide costs %v, want in [%v, %d]", tc.name, none, 0.8*float64(tc.stages), tc.stages)
		}
		// Spraying the strongest pesticide everywhere keeps the pest down but
		// pays every stage, so it costs at least the discounted price.
		all := make([]int, tc.stages)
		for i := range all {
			all[i] = 4
		}
		if v := p.Value(all, nil); v < 0.5*float64(tc.stages) || v >= none {
			t.Errorf("%s: pesticide 4 everywhere costs %v, want in [%v, %v)", tc.name, v, 0.5*float64(tc.stages), none)
		}
	}
}

// TestPestByHand replays a 2-stage schedule with the documented draw order.
func TestPestByHand(t *testing.T) {
	rng := rand.New(rand.NewPCG(pestSeed, 0))
	curr := make([]float64, pestSims)
	fillBeta(rng, curr, 1, 30)
	above := func(c []float64) float64 {
		k := 0
		for _, v := range c {
			if v > pestU {
				k++
			}
		}
		return float64(k) / pestSims
	}
	want := above(curr)
	spread := make([]float64, pestSims)
	fillBeta(rng, spread, 1, 17.0/3)
	for s := range curr { // stage 1: pesticide 2
		curr[s] *= 1 - betaVariate(rng, 1, 3.0/7)
	}
	want += above(curr) + 0.8*(1-0.3/2) // stage 2: nothing paid
	if got := pestCost([]int{2, 0}); math.Abs(got-want) > 1e-12 {
		t.Errorf("pestCost(2, 0) = %v, want %v", got, want)
	}
}

// TestContamination checks determinism and the range implied by the
// definition [spec §6.5]: each constraint slack lies in [−0.95, 0.05].
func TestContamination(t *testing.T) {
	p := mustGet(t, "contamination")
	q := mustGet(t, "contamination")
	if _, ok := p.Optimum(); ok {
		t.Error("contamination: optimum reported known")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		h := randomH(rng, p.Levels())
		a := p.Assignment(h, nil)
		f1, err := p.Evaluate(a, rng)
		if err != nil {
			t.Fatal(err)
		}
		f2, _ := q.Evaluate(a, nil)
		if f1 != f2 {
			t.Errorf("contamination: %v then %v", f1, f2)
		}
		nx := 0.0
		for _, v := range h {
			nx += float64(v)
		}
		lo := (1+contLambda)*nx - 0.05*contStages
		hi := (1+contLambda)*nx + 0.95*contStages
		if f1 < lo-1e-12 || f1 > hi+1e-12 {
			t.Errorf("contamination: %v outside [%v, %v]", f1, lo, hi)
		}
	}
	// In instance 0, preventing at every stage keeps every simulation below
	// U (Z_i = (1 − γ_i)Z_{i−1} only shrinks), so each slack is ε = 0.05.
	c := newContaminationDynamics(contSeed)
	ones := make([]int, contStages)
	for i := range ones {
		ones[i] = 1
	}
	if got, want := c.cost(ones), contStages*(1+contLambda)-contEps*contStages; math.Abs(got-want) > 1e-9 {
		t.Errorf("all-prevention cost %v, want %v", got, want)
	}
	if got := c.cost(make([]int, contStages)); got < 0.5*contStages {
		t.Errorf("no-prevention cost %v, want the constraints to fail (> %v)", got, 0.5*contStages)
	}
}
