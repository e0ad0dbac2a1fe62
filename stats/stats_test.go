package stats

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.10g, want %.10g", what, got, want)
	}
}

// The exact Mann–Whitney test: the values of R's ?wilcox.test example
// (W = 35, one-sided p = 0.1272) and a complete separation of 3 and 3
// values, U = 0 with P(U ≤ 0) = 1/C(6,3) = 1/20, so p = 0.1. The reference
// p-values were checked by enumerating all C(15,5) = 3003 splits.
func TestMannWhitneyExact(t *testing.T) {
	x := []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	y := []float64{1.15, 0.88, 0.90, 0.74, 1.21}
	u, p, err := MannWhitneyU(x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "U", u, 35, 0)
	near(t, "p", p, 2*382.0/3003, 1e-12) // 0.25441225…
	u, p, _ = MannWhitneyU([]float64{1, 2, 3}, []float64{4, 5, 6})
	near(t, "U (separated)", u, 0, 0)
	near(t, "p (separated)", p, 0.1, 1e-12)
	if _, q, _ := MannWhitneyU([]float64{4, 5, 6}, []float64{1, 2, 3}); q != p {
		t.Errorf("two-sided p depends on the order: %g and %g", q, p)
	}
}

// The normal approximation (21 values > 20, and ties): U = 91.5 by
// counting pairs; the variance n₁n₂/12·((n+1) − Σ(t³ − t)/(n(n − 1))) with
// the tie groups counted by hand, z = (|U − n₁n₂/2| − ½)/σ, p = erfc(z/√2)
// = 0.0192437…
func TestMannWhitneyNormal(t *testing.T) {
	x := []float64{1, 2, 2, 3, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 7, 8, 8, 9, 9, 10, 11}
	y := []float64{3, 4, 5, 5, 6, 7, 7, 7, 8, 9, 10, 10, 11, 12, 12, 13}
	u, p, err := MannWhitneyU(x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "U", u, 91.5, 0)
	near(t, "p", p, 0.019243702132779723, 1e-12)
	// All values equal: no evidence either way.
	if _, p, _ := MannWhitneyU([]float64{1, 1, 1}, []float64{1, 1}); p != 1 {
		t.Errorf("all tied: p = %g, want 1", p)
	}
}

// The exact signed-rank test: R's ?wilcox.test paired example (V = 40,
// two-sided p = 2·10/2⁹ = 0.0390625, by enumerating the 512 sign patterns).
func TestWilcoxonExact(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	w, p, err := WilcoxonSignedRank(x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "W+", w, 40, 1e-12)
	near(t, "p", p, 0.0390625, 1e-12)
}

// The normal approximation, with a zero difference (dropped: n = 11) and
// tied |differences|: W+ = 63.5, variance n(n+1)(2n+1)/24 − Σ(t³ − t)/48,
// continuity correction ½: p = 0.0067457…
func TestWilcoxonNormal(t *testing.T) {
	x := []float64{5, 7, 7, 9, 3, 4, 6, 8, 8, 2, 6, 5}
	y := []float64{4, 5, 6, 9, 1, 5, 4, 6, 5, 1, 3, 3}
	w, p, err := WilcoxonSignedRank(x, y)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "W+", w, 63.5, 0)
	near(t, "p", p, 0.006745749285831023, 1e-12)
	if _, p, _ := WilcoxonSignedRank([]float64{1, 2}, []float64{1, 2}); p != 1 {
		t.Errorf("no difference: p = %g, want 1", p)
	}
}

func TestStarsAndErrors(t *testing.T) {
	for p, want := range map[float64]string{0.0005: "***", 0.001: "**", 0.009: "**", 0.01: "*", 0.049: "*", 0.05: "", 0.7: ""} {
		if got := Stars(p); got != want {
			t.Errorf("Stars(%g) = %q, want %q", p, got, want)
		}
	}
	if _, _, err := MannWhitneyU(nil, []float64{1}); err == nil {
		t.Error("empty sample: no error")
	}
	if _, _, err := MannWhitneyU([]float64{math.NaN()}, []float64{1}); err == nil {
		t.Error("NaN: no error")
	}
	if _, _, err := WilcoxonSignedRank([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("unpaired lengths: no error")
	}
}
