package bench

import (
	"cmp"
	"math"
	"slices"
)

// Summary aggregates the runs of one optimiser on one problem
// (DESIGN.md §2.5).
type Summary struct {
	Problem              string   `json:"problem"`
	Sampler              string   `json:"sampler"`
	Runs                 int      `json:"runs"`
	MedianFinalBest      Number   `json:"median_final_best"`
	MedianRegret         *float64 `json:"median_regret"`
	IQRRegret            *float64 `json:"iqr_regret"`
	MeanRank             float64  `json:"mean_rank"`
	Wins                 int      `json:"wins"`
	MedianSuggestSeconds float64  `json:"median_suggest_seconds"`
	MedianTestRegret     *float64 `json:"median_test_regret,omitempty"`
	// Constrained problems: the share of all the runs' evaluations that
	// were feasible, and the runs that found no feasible point (their
	// regret counts as +Inf in the median; a median that is +Inf is null).
	FeasibleShare *float64 `json:"feasible_share,omitempty"`
	NoFeasible    int      `json:"no_feasible_runs,omitempty"`
	// NormalisedScore is Bayesmark's score where the optimum is unknown and
	// random search ran: see normalisedScores.
	NormalisedScore *float64 `json:"normalised_score,omitempty"`
	// Multi-objective problems: the medians over runs of the observed
	// front's hypervolume at the budget, of its ratio to the true front's
	// (FrontHV) and of log10 of the gap; MedianRegret is the median gap.
	MedianHV       *float64 `json:"median_hypervolume,omitempty"`
	FrontHV        *float64 `json:"front_hypervolume,omitempty"`
	MedianHVRatio  *float64 `json:"median_hv_ratio,omitempty"`
	MedianLogHVGap *Number  `json:"median_log_hv_gap,omitempty"`
}

// Summarize summarises runs per (problem, sampler), in the order they
// first appear. Ranks compare the optimisers' final figures on the same
// problem and seed (the test regret where the problem scores one, else the
// best value; 1 = best; ties share the mean rank); a win is a rank-1
// finish, shared wins included. Failed runs are left out.
func Summarize(runs []RunResult) []Summary {
	type key struct{ problem, sampler string }
	var order []key
	groups := map[key][]RunResult{}
	ranks := map[key][]float64{}
	wins := map[key]int{}
	bySeed := map[struct {
		problem string
		seed    int
	}][]RunResult{}
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		k := key{r.Problem, r.Sampler}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], r)
		ps := struct {
			problem string
			seed    int
		}{r.Problem, r.Seed}
		bySeed[ps] = append(bySeed[ps], r)
	}
	for _, rs := range bySeed {
		finals := finalBests(rs)
		if metricOf(rs) == testRegret {
			for i, r := range rs {
				finals[i] = math.Inf(1) // no incumbent
				if r.TestRegret != nil {
					finals[i] = *r.TestRegret
				}
			}
		}
		rk := Ranks(finals)
		for i, r := range rs {
			k := key{r.Problem, r.Sampler}
			ranks[k] = append(ranks[k], rk[i])
			if rk[i] == minOf(rk) {
				wins[k]++
			}
		}
	}
	out := make([]Summary, 0, len(order))
	for _, k := range order {
		rs := groups[k]
		s := Summary{Problem: k.problem, Sampler: k.sampler, Runs: len(rs), Wins: wins[k]}
		s.MedianFinalBest = Number(Median(finalBests(rs)))
		regs := collect(rs, func(r RunResult) *float64 { return r.Regret })
		if shares := collect(rs, func(r RunResult) *float64 { return r.FeasibleShare }); len(shares) > 0 {
			evals, feasible := 0.0, 0.0
			for _, r := range rs {
				evals += float64(len(r.Best))
				feasible += *r.FeasibleShare * float64(len(r.Best))
				if math.IsInf(float64(r.FinalBest), 1) {
					s.NoFeasible++
				}
			}
			share := feasible / evals
			s.FeasibleShare = &share
			if len(regs) > 0 { // the optimum is known: a run without a feasible point has regret +Inf
				for range s.NoFeasible {
					regs = append(regs, math.Inf(1))
				}
			}
		}
		if len(regs) > 0 {
			m, iqr := Median(regs), IQR(regs)
			if !math.IsInf(m, 0) {
				s.MedianRegret = &m
			}
			if !math.IsInf(iqr, 0) && !math.IsNaN(iqr) {
				s.IQRRegret = &iqr
			}
		}
		if trs := collect(rs, func(r RunResult) *float64 { return r.TestRegret }); len(trs) > 0 {
			m := Median(trs)
			s.MedianTestRegret = &m
		}
		if hvs := collect(rs, func(r RunResult) *float64 { return r.FinalHV }); len(hvs) > 0 {
			m := Median(hvs)
			ratio := Median(collect(rs, func(r RunResult) *float64 { return r.HVRatio }))
			var logs []float64
			for _, r := range rs {
				if r.LogHVGap != nil {
					logs = append(logs, float64(*r.LogHVGap))
				}
			}
			lg := Number(Median(logs))
			s.MedianHV, s.FrontHV, s.MedianHVRatio, s.MedianLogHVGap = &m, rs[0].FrontHV, &ratio, &lg
		}
		s.MeanRank = mean(ranks[k])
		var secs []float64
		for _, r := range rs {
			secs = append(secs, r.SuggestSeconds...)
		}
		s.MedianSuggestSeconds = Median(secs)
		out = append(out, s)
	}
	normalisedScores(out, groups)
	return out
}

// normalisedScores sets Bayesmark's normalised score on each problem whose
// optimum is unknown (the real tasks) and on which random search ran: the
// mean over runs of 100·(1 − (f − f*)/(f̄ᵣ − f*)), where f is the run's
// final best, f* the best value any run of the problem found, and f̄ᵣ the
// mean of random search's final bests [Bayesmark, "How scoring works": 100
// is the best seen, 0 random search; it normalises per iteration with
// random's mean curve, here at the budget]. Higher is better.
func normalisedScores[K comparable](out []Summary, groups map[K][]RunResult) {
	byProblem := map[string][]RunResult{}
	for _, rs := range groups {
		if len(rs) > 0 && rs[0].Regret == nil && rs[0].FeasibleShare == nil {
			byProblem[rs[0].Problem] = append(byProblem[rs[0].Problem], rs...)
		}
	}
	for i := range out {
		rs := byProblem[out[i].Problem]
		var random []float64
		best := math.Inf(1)
		for _, r := range rs {
			best = min(best, float64(r.FinalBest))
			if r.Sampler == "random" {
				random = append(random, float64(r.FinalBest))
			}
		}
		if len(random) == 0 || mean(random) <= best {
			continue
		}
		var scores []float64
		for _, r := range rs {
			if r.Sampler == out[i].Sampler {
				scores = append(scores, 100*(1-(float64(r.FinalBest)-best)/(mean(random)-best)))
			}
		}
		sc := mean(scores)
		out[i].NormalisedScore = &sc
	}
}

func finalBests(rs []RunResult) []float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = float64(r.FinalBest)
	}
	return v
}

func collect(rs []RunResult, f func(RunResult) *float64) []float64 {
	var v []float64
	for _, r := range rs {
		if p := f(r); p != nil {
			v = append(v, *p)
		}
	}
	return v
}

// Median is the middle of v (the mean of the two middle values for an even
// count); NaN for an empty v.
func Median(v []float64) float64 { return Quantile(v, 0.5) }

// IQR is the interquartile range Q3 − Q1 of v.
func IQR(v []float64) float64 { return Quantile(v, 0.75) - Quantile(v, 0.25) }

// Quantile is the q-quantile of v by linear interpolation between order
// statistics (the "type 7" rule of R and numpy's default).
func Quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := slices.Clone(v)
	slices.Sort(s)
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	hi := min(lo+1, len(s)-1)
	if h == float64(lo) || s[lo] == s[hi] {
		return s[lo] // exact: no 0·Inf, nor Inf − Inf, when infinite
	}
	return s[lo] + (h-float64(lo))*(s[hi]-s[lo])
}

// Ranks returns the rank of each value among v (1 = smallest), ties sharing
// the mean of their ranks.
func Ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

func mean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

func minOf(v []float64) float64 { return slices.Min(v) }
