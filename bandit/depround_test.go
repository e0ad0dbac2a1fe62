package bandit

import (
	"math"
	"testing"
)

func TestDepRoundMarginals(t *testing.T) {
	const draws = 100000
	for _, tc := range []struct {
		name string
		p    []float64
		b    int
	}{
		{"half", []float64{0.5, 0.5}, 1},
		{"zeros and ones", []float64{0.2, 0.3, 0.5, 1, 0}, 2},
		{"all integral", []float64{1, 0, 1, 0}, 2},
		{"uniform", []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 1},
		{"high", []float64{0.9, 0.9, 0.9, 0.3}, 3},
		{"mixed", []float64{0.05, 0.65, 1, 0, 0.7, 0.35, 0.25}, 3},
		{"all", []float64{1, 1, 1}, 3},
		{"none", []float64{0, 0}, 0},
	} {
		rng := newRNG(2024)
		counts := make([]float64, len(tc.p))
		for d := 0; d < draws; d++ {
			s := DepRound(tc.p, tc.b, rng)
			if len(s) != tc.b {
				t.Fatalf("%s: %d indices %v, want %d", tc.name, len(s), s, tc.b)
			}
			for k, i := range s {
				if k > 0 && i <= s[k-1] {
					t.Fatalf("%s: indices %v not distinct and increasing", tc.name, s)
				}
				counts[i]++
			}
		}
		for i, p := range tc.p {
			se := math.Sqrt(p * (1 - p) / draws)
			if f := counts[i] / draws; math.Abs(f-p) > 3*se {
				t.Errorf("%s: P(%d ∈ S) ≈ %.4f, want %.4f ± %.4f (3 s.e.)", tc.name, i, f, p, 3*se)
			}
		}
	}
}

func TestDepRoundRoundOff(t *testing.T) {
	// Probabilities from EXP3M carry round-off; the result must still have b.
	p := []float64{1 - 1e-13, 1.0 / 3, 1.0 / 3, 1.0 / 3, 1e-13}
	rng := newRNG(9)
	for d := 0; d < 1000; d++ {
		if s := DepRound(p, 2, rng); len(s) != 2 {
			t.Fatalf("got %v, want 2 indices", s)
		}
	}
}

func TestDepRoundDeterministic(t *testing.T) {
	p := []float64{0.3, 0.6, 0.2, 0.9}
	a, b := newRNG(1), newRNG(1)
	for d := 0; d < 100; d++ {
		x, y := DepRound(p, 2, a), DepRound(p, 2, b)
		if x[0] != y[0] || x[1] != y[1] {
			t.Fatalf("draw %d: %v vs %v with the same seed", d, x, y)
		}
	}
	if p[0] != 0.3 || p[3] != 0.9 {
		t.Errorf("DepRound modified its input: %v", p)
	}
}

func TestDepRoundPanics(t *testing.T) {
	rng := newRNG(1)
	for _, tc := range []struct {
		name, want string
		p          []float64
		b          int
	}{
		{"sum", "sum(p) = b", []float64{0.5, 0.6}, 1},
		{"range", "outside [0, 1]", []float64{1.5, -0.5}, 1},
		{"b too big", "b <= len(p)", []float64{1}, 2},
		{"nan", "outside [0, 1]", []float64{math.NaN(), 1}, 1},
	} {
		mustPanic(t, tc.name, tc.want, func() { DepRound(tc.p, tc.b, rng) })
	}
}
