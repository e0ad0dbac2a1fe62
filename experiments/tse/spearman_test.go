package tse

import (
	"math"
	"testing"
)

// Spearman with ties against hand-computed values (spec §10).
func TestSpearmanTies(t *testing.T) {
	// x = 1, 2, 2, 3 has ranks 1, 2.5, 2.5, 4; y = 1, 3, 2, 4 ranks 1, 3, 2, 4.
	// Around the mean rank 2.5: dx = −1.5, 0, 0, 1.5 and dy = −1.5, 0.5,
	// −0.5, 1.5, so Σdx·dy = 4.5, Σdx² = 4.5, Σdy² = 5 and
	// ρ = 4.5/√22.5 = √0.9.
	if got, want := Spearman([]float64{1, 2, 2, 3}, []float64{1, 3, 2, 4}), math.Sqrt(0.9); math.Abs(got-want) > 1e-12 {
		t.Errorf("ρ = %v, want √0.9 = %v", got, want)
	}
	// Ties in both: x = 5, 5, 1, 7, 7 ranks 2.5, 2.5, 1, 4.5, 4.5; y = 0, 1,
	// 1, 1, 9 ranks 1, 3, 3, 3, 5. Around 3: dx = −.5, −.5, −2, 1.5, 1.5 and
	// dy = −2, 0, 0, 0, 2: Σdx·dy = 1 + 3 = 4, Σdx² = 9, Σdy² = 8,
	// ρ = 4/√72 = √2/3.
	x, y := []float64{5, 5, 1, 7, 7}, []float64{0, 1, 1, 1, 9}
	if got, want := Spearman(x, y), math.Sqrt(2)/3; math.Abs(got-want) > 1e-12 {
		t.Errorf("ρ = %v, want √2/3 = %v", got, want)
	}
	wantRanks := []float64{2.5, 2.5, 1, 4.5, 4.5}
	for i, r := range Ranks(x) {
		if r != wantRanks[i] {
			t.Errorf("Ranks(%v) = %v, want %v", x, Ranks(x), wantRanks)
			break
		}
	}
	if got := Spearman([]float64{1, 2, 3}, []float64{30, 20, 10}); got != -1 {
		t.Errorf("reversed order: ρ = %v, want −1", got)
	}
	if got := Spearman([]float64{1, 1, 1}, []float64{1, 2, 3}); !math.IsNaN(got) {
		t.Errorf("constant x: ρ = %v, want NaN", got)
	}
	// NaN (a diverged run) ranks below every number.
	if r := Ranks([]float64{0.5, math.NaN(), -3}); r[0] != 3 || r[1] != 1 || r[2] != 2 {
		t.Errorf("ranks with NaN = %v, want [3 1 2]", r)
	}
}
