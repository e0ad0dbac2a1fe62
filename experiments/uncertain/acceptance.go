package uncertain

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Check is one acceptance line of spec §8.6, judged on the cells run.
type Check struct {
	Line      string
	Evaluated bool // false when the run lacks the cells or models the line needs
	Met       bool
	Detail    string // the numbers behind the verdict
}

func (c Check) String() string {
	verdict := "not evaluated"
	if c.Evaluated {
		verdict = "not met"
		if c.Met {
			verdict = "met"
		}
	}
	return fmt.Sprintf("%s: %s — %s", verdict, c.Line, c.Detail)
}

// Catastrophe is the −10⁴ line of §8.6.
const Catastrophe = -1e4

// The stable and the linearising models of §8.6's lines.
var (
	stableModels    = []string{"rbf", "rq", "analytic", "utgp"}
	linearisingOnes = []string{"randfunc", "nigp"}
)

func present(r *Results, want []string) []string {
	var out []string
	for _, m := range want {
		if slices.Contains(r.Models, m) {
			out = append(out, m)
		}
	}
	return out
}

func cellsOf(r *Results, prefixes ...string) []Cell {
	var out []Cell
	for _, c := range r.Cells {
		for _, p := range prefixes {
			if strings.HasPrefix(c.Task, p) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Acceptance judges the four table lines of §8.6 on r (the tables' run);
// the 1-D line is Acceptance1D. A cell's value is its mean over the seeds
// (the tables' entry); the worst single seed is in the details.
func Acceptance(r *Results, noisy bool) []Check {
	ll := MetricLL
	if noisy {
		ll = MetricLLNoisy
	}
	return []Check{catastrophes(r, ll), ackleyWins(r, ll), inflation(r), sqErrAgreement(r)}
}

func catastrophes(r *Results, ll Metric) Check {
	ch := Check{Line: "RBF, RQ, Analytic and UTGP never below −10⁴ on any cell; RandFunc or NIGP below on at least one of decaying-sin, the GP draws or michalewicz"}
	st, li := present(r, stableModels), present(r, linearisingOnes)
	if len(st) == 0 || len(li) == 0 || len(r.Cells) == 0 {
		ch.Detail = fmt.Sprintf("needs a stable and a linearising model (run: %v)", r.Models)
		return ch
	}
	ch.Evaluated = true
	worstStable, worstStableAt := math.Inf(1), ""
	var stableBad []string
	for _, c := range r.Cells {
		for _, m := range st {
			s := r.Stat(c, m, ll)
			if s.Mean < worstStable {
				worstStable, worstStableAt = s.Mean, fmt.Sprintf("%s on %s", m, c)
			}
			if s.Mean < Catastrophe || s.N == 0 {
				stableBad = append(stableBad, fmt.Sprintf("%s on %s: %.1f", m, c, s.Mean))
			}
		}
	}
	var linBad []string
	worstLin, worstLinAt := math.Inf(1), ""
	for _, c := range cellsOf(r, "decaying-sin", "draw-from-gp", "michalewicz") {
		for _, m := range li {
			s := r.Stat(c, m, ll)
			if s.Mean < worstLin {
				worstLin, worstLinAt = s.Mean, fmt.Sprintf("%s on %s (worst seed %.1f)", m, c, s.Min)
			}
			if s.Mean < Catastrophe {
				linBad = append(linBad, fmt.Sprintf("%s on %s: %.1f", m, c, s.Mean))
			}
		}
	}
	ch.Met = len(stableBad) == 0 && len(linBad) > 0
	ch.Detail = fmt.Sprintf("lowest stable-model mean %.1f (%s); stable cells below: %d %v; lowest RandFunc/NIGP mean %.1f (%s); their cells below: %d %v",
		worstStable, worstStableAt, len(stableBad), stableBad, worstLin, worstLinAt, len(linBad), linBad)
	return ch
}

func ackleyWins(r *Results, ll Metric) Check {
	ch := Check{Line: "UTGP has the highest mean log-likelihood in at least half of the ackley cells (12 in the tables)"}
	cells := cellsOf(r, "ackley")
	if !slices.Contains(r.Models, "utgp") || len(r.Models) < 2 || len(cells) == 0 {
		ch.Detail = "needs utgp, another model and an ackley cell"
		return ch
	}
	ch.Evaluated = true
	wins := 0
	var rows []string
	for _, c := range cells {
		best, at := math.Inf(-1), ""
		for _, m := range r.Models {
			if s := r.Stat(c, m, ll); s.Mean > best {
				best, at = s.Mean, m
			}
		}
		u := r.Stat(c, "utgp", ll).Mean
		if u >= best {
			wins++
		}
		rows = append(rows, fmt.Sprintf("%s: utgp %.1f, best %s %.1f", c, u, at, best))
	}
	ch.Met = 2*wins >= len(cells)
	ch.Detail = fmt.Sprintf("UTGP best in %d of %d cells; %s", wins, len(cells), strings.Join(rows, "; "))
	return ch
}

func inflation(r *Results) Check {
	ch := Check{Line: "on decaying-sin the UTGP predictive variance at the test points exceeds the RBF variance"}
	cells := cellsOf(r, "decaying-sin")
	if !slices.Contains(r.Models, "utgp") || !slices.Contains(r.Models, "rbf") || len(cells) == 0 {
		ch.Detail = "needs utgp, rbf and a decaying-sin cell"
		return ch
	}
	ch.Evaluated, ch.Met = true, true
	var rows []string
	for _, c := range cells {
		u, b := r.Stat(c, "utgp", MetricMeanVar).Mean, r.Stat(c, "rbf", MetricMeanVar).Mean
		if !(u > b) {
			ch.Met = false
		}
		rows = append(rows, fmt.Sprintf("%s: mean V utgp %.3g, rbf %.3g (×%.3g)", c, u, b, u/b))
	}
	ch.Detail = strings.Join(rows, "; ")
	return ch
}

// sqErrAgreement reads "within ±20 % across" the four models as: every
// model's mean Σ(μ − f)² within ±20 % of the mean of the four.
func sqErrAgreement(r *Results) Check {
	ch := Check{Line: "squared error within ±20 % across RBF, RQ, Analytic and UTGP on every ackley and michalewicz cell"}
	st := present(r, stableModels)
	cells := cellsOf(r, "ackley", "michalewicz")
	if len(st) < 2 || len(cells) == 0 {
		ch.Detail = "needs two of rbf, rq, analytic, utgp and an ackley or michalewicz cell"
		return ch
	}
	ch.Evaluated, ch.Met = true, true
	worst, worstAt := 0.0, ""
	var bad []string
	for _, c := range cells {
		var avg float64
		vals := make([]float64, len(st))
		for i, m := range st {
			vals[i] = r.Stat(c, m, MetricSqErr).Mean
			avg += vals[i] / float64(len(st))
		}
		for i, v := range vals {
			dev := math.Abs(v/avg - 1)
			if dev > worst || math.IsNaN(dev) {
				worst, worstAt = dev, fmt.Sprintf("%s on %s: %.3g vs the four's mean %.3g", st[i], c, v, avg)
			}
			if !(dev <= 0.2) {
				ch.Met = false
				bad = append(bad, fmt.Sprintf("%s on %s (%+.0f %%)", st[i], c, 100*(v/avg-1)))
			}
		}
	}
	ch.Detail = fmt.Sprintf("largest deviation %.0f %% (%s); outside ±20 %%: %d %v", 100*worst, worstAt, len(bad), bad)
	return ch
}

// Approx is the tolerance of "≈" and "≥" in the 1-D line: the published
// single-seed values differ by 0.1 within the ≈ group and by 0.5–4 across
// it, so two models are ≈ when their mean paired difference over the seeds
// is within two standard errors or within ApproxNats; a ≥ b when a is not
// below b by more than that.
const ApproxNats = 1.0

// Acceptance1D judges the 1-D ordering RBF ≈ RQ ≈ Analytic ≈ NIGP ≥
// RandFunc ≥ UTGP at every σ_x run, on r1 (the 1-D study's run).
func Acceptance1D(r1 *Results, noisy bool) Check {
	ll := MetricLL
	if noisy {
		ll = MetricLLNoisy
	}
	ch := Check{Line: "1-D study: RBF ≈ RQ ≈ Analytic ≈ NIGP ≥ RandFunc ≥ UTGP at both σ_x"}
	need := []string{"rbf", "rq", "analytic", "nigp", "randfunc", "utgp"}
	if len(present(r1, need)) != len(need) || len(r1.Cells) == 0 {
		ch.Detail = fmt.Sprintf("needs all of %v (run: %v)", need, r1.Models)
		return ch
	}
	ch.Evaluated, ch.Met = true, true
	var rows []string
	for _, c := range r1.Cells {
		diff := func(a, b string) (float64, float64) {
			va, vb := r1.Values(c, a, ll), r1.Values(c, b, ll)
			d := make([]float64, len(va))
			for i := range d {
				d[i] = va[i] - vb[i]
			}
			s := Summarize(d)
			return s.Mean, max(2*s.SE, ApproxNats)
		}
		var fails []string
		group := need[:4]
		for i, a := range group {
			for _, b := range group[i+1:] {
				if d, tol := diff(a, b); !(math.Abs(d) <= tol) {
					fails = append(fails, fmt.Sprintf("%s≉%s (%+.2f, tol %.2f)", a, b, d, tol))
				}
			}
			if d, tol := diff(a, "randfunc"); !(d >= -tol) {
				fails = append(fails, fmt.Sprintf("%s<randfunc (%+.2f, tol %.2f)", a, d, tol))
			}
		}
		if d, tol := diff("randfunc", "utgp"); !(d >= -tol) {
			fails = append(fails, fmt.Sprintf("randfunc<utgp (%+.2f, tol %.2f)", d, tol))
		}
		means := make([]string, len(need))
		for i, m := range need {
			st := r1.Stat(c, m, ll)
			means[i] = fmt.Sprintf("%s %.1f (median %.1f)", m, st.Mean, st.Median)
		}
		if len(fails) > 0 {
			ch.Met = false
		}
		rows = append(rows, fmt.Sprintf("σx=%g: %s; violations %v", c.SigmaX, strings.Join(means, ", "), fails))
	}
	ch.Detail = strings.Join(rows, "; ")
	return ch
}
