package curve

import (
	"math"
	"testing"
)

// A 5-epoch curve and the estimators computed by hand (spec §10).
func TestEstimatorsByHand(t *testing.T) {
	c := []float64{2.0, 1.5, 1.0, 0.8, 0.5}
	for _, tc := range []struct {
		e    Estimator
		want float64
	}{
		{TSE{}, 5.8},
		{TSEE{E: 1}, 0.5},
		{TSEE{E: 2}, 1.3},
		{TSEE{E: 9}, 5.8},
		// 0.5⁴·2 + 0.5³·1.5 + 0.5²·1 + 0.5·0.8 + 0.5 = 1.4625
		{TSEEMA{Gamma: 0.5}, 1.4625},
		{TSEEMA{Gamma: 1}, 5.8},
		{TSEEMA{Gamma: 0}, 0.5},
	} {
		if got := tc.e.Estimate(c); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%v = %v, want %v", tc.e, got, tc.want)
		}
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name  string
		e     int
		gamma float64
		want  string
	}{
		{"tse", 0, 0, "tse"},
		{"tse-e", 0, 0, "tse-e(E=1)"},
		{"tse-e", 3, 0, "tse-e(E=3)"},
		{"tse-ema", 0, 0, "tse-ema(γ=0.999)"},
		{"tse-ema", 0, 0.9, "tse-ema(γ=0.9)"},
	} {
		e, err := New(tc.name, tc.e, tc.gamma)
		if err != nil || e.String() != tc.want {
			t.Errorf("New(%q, %d, %v) = %v, %v; want %s", tc.name, tc.e, tc.gamma, e, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name  string
		e     int
		gamma float64
	}{{"sovl", 0, 0}, {"tse-e", -1, 0}, {"tse-ema", 0, 1.5}, {"tse-ema", 0, math.NaN()}} {
		if _, err := New(tc.name, tc.e, tc.gamma); err == nil {
			t.Errorf("New(%q, %d, %v) took it", tc.name, tc.e, tc.gamma)
		}
	}
}

// Algorithm 12 on curves with known first-overfit epochs (spec §10).
func TestEffectiveBudget(t *testing.T) {
	curves := [][]float64{
		{1, 0.5, 0.2, 0.09, 0.05},      // first below 0.1 at epoch 4
		{1, 0.8, 0.6, 0.4, 0.3},        // never: counts as 5
		{1, 0.3, 0.05, 0.01, 0.01},     // epoch 3
		{0.9, 0.1, 0.1, 0.1, 0.099999}, // 0.1 is not below: epoch 5
	}
	got, err := EffectiveBudget(curves)
	if err != nil || math.Abs(got-2.7) > 1e-12 {
		t.Errorf("EffectiveBudget = %v, %v; want 0.9·3 = 2.7", got, err)
	}
	if got, _ := EffectiveBudget(curves[1:2]); math.Abs(got-4.5) > 1e-12 {
		t.Errorf("no curve overfits: %v, want 0.9·5 = 4.5", got)
	}
	if _, err := EffectiveBudget(nil); err == nil {
		t.Error("no curves: no error")
	}
	if _, err := EffectiveBudget([][]float64{{}}); err == nil {
		t.Error("an empty curve: no error")
	}
}

// EstimateEach is Estimate on every prefix, NaNs and all.
func TestEstimateEach(t *testing.T) {
	c := []float64{2.0, 1.5, math.NaN(), 1.0, 0.8, 0.5, 0.45}
	for _, e := range []Estimator{TSE{}, TSEE{E: 1}, TSEE{E: 3}, TSEE{E: 10}, TSEEMA{Gamma: 0.9}, TSEEMA{Gamma: 0.999}} {
		each := e.EstimateEach(c)
		for i := range c {
			want := e.Estimate(c[:i+1])
			if got := each[i]; !(got == want || math.IsNaN(got) && math.IsNaN(want) || math.Abs(got-want) <= 1e-12) {
				t.Errorf("%v: EstimateEach[%d] = %v, Estimate of the prefix = %v", e, i, got, want)
			}
		}
	}
}
