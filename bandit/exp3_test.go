package bandit

import (
	"math"
	"testing"
)

func TestEXP3ProbsValid(t *testing.T) {
	for _, tc := range []struct {
		n     int
		gamma float64
	}{
		{1, 0.5}, {2, 0}, {5, 0.06}, {5, 1}, {10, 0.3},
	} {
		e := NewEXP3(tc.n, tc.gamma)
		rng := newRNG(1)
		for round := 0; round < 300; round++ {
			p := e.Probs()
			if s := sum(p); math.Abs(s-1) > 1e-12 {
				t.Fatalf("n=%d γ=%v round %d: Σp = %v", tc.n, tc.gamma, round, s)
			}
			for j, v := range p {
				if v < tc.gamma/float64(tc.n)*(1-1e-12) || v > 1+1e-12 || math.IsNaN(v) {
					t.Fatalf("n=%d γ=%v round %d: p[%d] = %v, want in [γ/N, 1]", tc.n, tc.gamma, round, j, v)
				}
			}
			arm := e.Draw(rng)
			// Adversarial-ish rewards: favour arm 0 early, the last arm later.
			r := rng.Float64()
			if (round < 150) == (arm == 0) {
				r = 1
			}
			e.Update(arm, r)
		}
	}
}

func TestEXP3FirstUpdate(t *testing.T) {
	// From uniform weights p = 1/N, so log w gains γ r/(p N) = γ r.
	e := NewEXP3(4, 0.2)
	e.Update(2, 0.5)
	want := []float64{0, 0, 0.2 * 0.5, 0}
	for j := range want {
		if math.Abs(e.logw[j]-want[j]) > 1e-15 {
			t.Errorf("log w = %v, want %v", e.logw, want)
			break
		}
	}
}

func TestEXP3LargeLogWeights(t *testing.T) {
	// Weights far beyond exp's range must not overflow [spec §2.1 Numerics].
	e := NewEXP3(3, 0.3)
	e.logw = []float64{5000, 4999, -5000}
	p := e.Probs()
	w0 := 1 / (1 + math.Exp(-1))
	want := []float64{0.7*w0 + 0.1, 0.7*(1-w0) + 0.1, 0.1}
	for j := range p {
		if math.Abs(p[j]-want[j]) > 1e-14 {
			t.Fatalf("Probs = %v, want %v", p, want)
		}
	}
}

func TestEXP3StationaryBestArm(t *testing.T) {
	// Bernoulli rewards with one clearly best arm; N = 5, γ tuned for 2000
	// rounds [spec §8].
	means := []float64{0.4, 0.3, 0.9, 0.5, 0.2}
	const rounds, best = 2000, 2
	gamma := TunedGamma(len(means), rounds)
	for seed := uint64(1); seed <= 5; seed++ {
		rng := newRNG(seed)
		e := NewEXP3(len(means), gamma)
		hits := 0
		for r := 0; r < rounds; r++ {
			arm := e.Draw(rng)
			var reward float64
			if rng.Float64() < means[arm] {
				reward = 1
			}
			e.Update(arm, reward)
			if r >= rounds-1000 && arm == best {
				hits++
			}
		}
		if f := float64(hits) / 1000; f <= 0.8 {
			t.Errorf("seed %d: best arm played in %.3f of the last 1000 rounds, want > 0.8", seed, f)
		}
	}
}

func TestEXP3Deterministic(t *testing.T) {
	run := func() []int {
		rng := newRNG(42)
		e := NewEXP3(6, 0.1)
		var arms []int
		for r := 0; r < 200; r++ {
			a := e.Draw(rng)
			e.Update(a, float64(a)/5)
			arms = append(arms, a)
		}
		return arms
	}
	a, b := run(), run()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("round %d: arm %d then %d with the same seed", i, a[i], b[i])
		}
	}
}

func TestEXP3Panics(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		f          func()
	}{
		{"reward > 1", "outside [0, 1]", func() { NewEXP3(3, 0.1).Update(0, 1.5) }},
		{"reward < 0", "outside [0, 1]", func() { NewEXP3(3, 0.1).Update(0, -0.1) }},
		{"reward NaN", "outside [0, 1]", func() { NewEXP3(3, 0.1).Update(0, math.NaN()) }},
		{"arm", "out of range", func() { NewEXP3(3, 0.1).Update(3, 0.5) }},
		{"gamma", "gamma", func() { NewEXP3(3, 1.1) }},
		{"n", "n >= 1", func() { NewEXP3(0, 0.1) }},
	} {
		mustPanic(t, tc.name, tc.want, tc.f)
	}
}
