package bench

import (
	"math"
	"slices"
	"testing"
)

func TestQuantiles(t *testing.T) {
	for _, tc := range []struct {
		v                []float64
		median, iqr, q10 float64
	}{
		{[]float64{3}, 3, 0, 3},
		{[]float64{1, 2}, 1.5, 0.5, 1.1},
		{[]float64{4, 1, 3, 2}, 2.5, 1.5, 1.3},
		{[]float64{1, 2, 3, 4, 100}, 3, 2, 1.4},
	} {
		if m := Median(tc.v); m != tc.median {
			t.Errorf("Median(%v) = %v, want %v", tc.v, m, tc.median)
		}
		if q := IQR(tc.v); math.Abs(q-tc.iqr) > 1e-12 {
			t.Errorf("IQR(%v) = %v, want %v", tc.v, q, tc.iqr)
		}
		if q := Quantile(tc.v, 0.1); math.Abs(q-tc.q10) > 1e-12 {
			t.Errorf("Quantile(%v, 0.1) = %v, want %v", tc.v, q, tc.q10)
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median of nothing is not NaN")
	}
	// An infinite value (a study that completed nothing) next to the
	// median: 0·Inf gave NaN.
	inf := math.Inf(1)
	if m, m2 := Median([]float64{1, inf, 2}), Median([]float64{1, inf, 2, inf}); m != 2 || m2 != inf {
		t.Errorf("medians with +Inf: %v and %v, want 2 and +Inf", m, m2)
	}
	// Between two infinite values (runs with no feasible point yet):
	// Inf − Inf gave NaN, which the curve plots refused.
	if q := Quantile([]float64{1, inf, inf, inf}, 0.6); q != inf {
		t.Errorf("Quantile between two +Inf = %v, want +Inf", q)
	}
	v := []float64{3, 1, 2}
	Median(v)
	if !slices.Equal(v, []float64{3, 1, 2}) {
		t.Error("Median sorted its argument")
	}
}

func TestRanks(t *testing.T) {
	for _, tc := range []struct{ v, want []float64 }{
		{[]float64{0.3, 0.1, 0.2}, []float64{3, 1, 2}},
		{[]float64{1, 1, 2}, []float64{1.5, 1.5, 3}},
		{[]float64{5, 5, 5}, []float64{2, 2, 2}},
		{[]float64{2, 1, 2, 0}, []float64{3.5, 2, 3.5, 1}},
	} {
		if got := Ranks(tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("Ranks(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

func reg(v float64) *float64 { return &v }

func TestSummarize(t *testing.T) {
	runs := []RunResult{
		{Problem: "p", Sampler: "a", Seed: 1, FinalBest: 1, Regret: reg(1), SuggestSeconds: []float64{1, 3}},
		{Problem: "p", Sampler: "b", Seed: 1, FinalBest: 2, Regret: reg(2), SuggestSeconds: []float64{2}},
		{Problem: "p", Sampler: "a", Seed: 2, FinalBest: 3, Regret: reg(3), SuggestSeconds: []float64{5}},
		{Problem: "p", Sampler: "b", Seed: 2, FinalBest: 3, Regret: reg(3), SuggestSeconds: []float64{2}},
		{Problem: "p", Sampler: "b", Seed: 3, Error: "boom"},
	}
	s := Summarize(runs)
	if len(s) != 2 {
		t.Fatalf("%d summaries, want 2", len(s))
	}
	a, b := s[0], s[1]
	if a.Sampler != "a" || a.Runs != 2 || a.MedianFinalBest != 2 || *a.MedianRegret != 2 || *a.IQRRegret != 1 {
		t.Errorf("a: %+v", a)
	}
	// seed 1: a ranks 1, b 2; seed 2: a tie at 1.5 each.
	if a.MeanRank != 1.25 || b.MeanRank != 1.75 || a.Wins != 2 || b.Wins != 1 {
		t.Errorf("ranks: a %.2f (%d wins), b %.2f (%d wins); want 1.25 (2), 1.75 (1)", a.MeanRank, a.Wins, b.MeanRank, b.Wins)
	}
	if a.MedianSuggestSeconds != 3 || b.Runs != 2 {
		t.Errorf("a suggest %v, b runs %d", a.MedianSuggestSeconds, b.Runs)
	}
}

// TestSummarizeRanksByTestRegret: where runs have test regrets, the ranks
// compare them, not the observed best (a lucky noisy draw does not win).
func TestSummarizeRanksByTestRegret(t *testing.T) {
	runs := []RunResult{
		{Problem: "p", Sampler: "lucky", Seed: 1, FinalBest: 0.1, Best: []float64{0.1}, TestRegrets: []float64{0.5}, TestRegret: reg(0.5)},
		{Problem: "p", Sampler: "good", Seed: 1, FinalBest: 0.2, Best: []float64{0.2}, TestRegrets: []float64{0.01}, TestRegret: reg(0.01)},
	}
	s := Summarize(runs)
	if s[0].MeanRank != 2 || s[1].MeanRank != 1 || s[1].Wins != 1 || *s[1].MedianTestRegret != 0.01 {
		t.Errorf("summaries %+v", s)
	}
}

// TestNormalisedScore: 100 for the best value seen, 0 for random search's
// mean, on a problem whose optimum is unknown.
func TestNormalisedScore(t *testing.T) {
	runs := []RunResult{
		{Problem: "task", Sampler: "random", Seed: 1, FinalBest: 3},
		{Problem: "task", Sampler: "random", Seed: 2, FinalBest: 5},
		{Problem: "task", Sampler: "bo", Seed: 1, FinalBest: 1},
		{Problem: "task", Sampler: "bo", Seed: 2, FinalBest: 2.5},
		{Problem: "known", Sampler: "random", Seed: 1, FinalBest: 1, Regret: reg(1)},
	}
	s := Summarize(runs)
	if s[0].NormalisedScore == nil || math.Abs(*s[0].NormalisedScore) > 1e-12 || s[1].NormalisedScore == nil || math.Abs(*s[1].NormalisedScore-75) > 1e-12 || s[2].NormalisedScore != nil {
		t.Errorf("scores: random %v, bo %v, known %v", s[0].NormalisedScore, s[1].NormalisedScore, s[2].NormalisedScore)
	}
}
