package bandit

import (
	"math"
	"testing"
)

func TestTunedGamma(t *testing.T) {
	// Reference values computed independently from
	// min(1, sqrt(n ln n / ((e-1) 2T/3))).
	for _, tc := range []struct {
		n, budget int
		want      float64
	}{
		{5, 2000, 0.05926599075953176},
		{2, 200, 0.0777877413399472},
		{3, 100, 0.16962165040122623},
		{10, 3, 1},  // formula > 1: capped
		{1, 100, 0}, // ln 1 = 0: a single arm needs no exploration
		{4, 0, 1},   // undefined budget: uniform
	} {
		if got := TunedGamma(tc.n, tc.budget); math.Abs(got-tc.want) > 1e-14 {
			t.Errorf("TunedGamma(%d, %d) = %v, want %v", tc.n, tc.budget, got, tc.want)
		}
	}
}

func TestBatchGamma(t *testing.T) {
	// Reference values from sqrt(n ln(n/b) / ((e-1) b 2T/3)).
	for _, tc := range []struct {
		n, b, budget int
		want         float64
	}{
		{5, 2, 200, 0.09999311188817636},
		{10, 3, 100, 0.18717426743837362},
		{20, 4, 1000, 0.08381476791960835},
		{3, 3, 100, 1}, // n <= b: undefined, uniform
		{2, 5, 100, 1}, // n < b
		{100, 2, 3, 1}, // formula > 1: capped
		{5, 2, -1, 1},  // no budget
	} {
		if got := BatchGamma(tc.n, tc.b, tc.budget); math.Abs(got-tc.want) > 1e-14 {
			t.Errorf("BatchGamma(%d, %d, %d) = %v, want %v", tc.n, tc.b, tc.budget, got, tc.want)
		}
	}
}
