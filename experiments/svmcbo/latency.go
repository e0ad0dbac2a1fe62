package svmcbo

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/stats"
)

// The samplers of the NB201 latency study [spec constrained-autotinyml
// §7.4]: SVM-CBO_RF and random search; in place of the spec's
// penalty-based GP-BO, boa's gpbo with its constraint models (issue 34's
// acceptance; docs/samplers.md, "Constraints"); Optuna's constrained TPE,
// the peer, in the coupled mode; and casmopolitan in the decoupled mode,
// the sampler auto chooses for NB201's space when no constraint needs a
// model.
const (
	latencyRandom = "random"
	latencyGPBO   = "gpbo"
	latencySVMCBO = "svmcbo-rf"
	latencyPeer   = "optuna-tpe-c"
	latencyCasmo  = "casmopolitan"
)

// latencyRuns is the study's runs from any number of reports (boa bench
// --out folders), by problem and sampler.
type latencyRuns struct {
	problems []string                 // in order of first appearance
	sums     map[string]bench.Summary // by key(problem, sampler)
	regrets  map[string][]float64     // final feasible regrets, +Inf for a run without a feasible point
}

func key(problem, sampler string) string { return problem + "\x00" + sampler }

func mergeReports(reports []bench.Report) latencyRuns {
	l := latencyRuns{sums: map[string]bench.Summary{}, regrets: map[string][]float64{}}
	for _, r := range reports {
		for _, s := range r.Summary {
			if !slices.Contains(l.problems, s.Problem) {
				l.problems = append(l.problems, s.Problem)
			}
			l.sums[key(s.Problem, s.Sampler)] = s
		}
		for _, run := range r.Results {
			if run.Error != "" {
				continue
			}
			v := math.Inf(1)
			if run.Regret != nil {
				v = *run.Regret
			}
			k := key(run.Problem, run.Sampler)
			l.regrets[k] = append(l.regrets[k], v)
		}
	}
	return l
}

// cell is "median regret / median test regret / feasible share".
func (l latencyRuns) cell(problem, sampler string) string {
	s, ok := l.sums[key(problem, sampler)]
	if !ok || s.MedianRegret == nil || s.MedianTestRegret == nil || s.FeasibleShare == nil {
		return "—"
	}
	return fmt.Sprintf("%.3f / %.3f / %.2f", *s.MedianRegret, *s.MedianTestRegret, *s.FeasibleShare)
}

// LatencyTable writes the NB201 latency study from the reports of boa
// bench (results.json): per problem (device, L) of the mode asked for
// (coupled, or decoupled: the problems named …:decoupled) and sampler the
// median feasible regret at the budget, the median test regret and the
// share of feasible evaluations, then the acceptance comparisons of spec
// §7.4 and issue 34 with the two-sided Mann–Whitney p of each (a run
// without a feasible point counts as +Inf). The decoupled table has
// casmopolitan in place of the peer, which is not told the latencies
// (bench.Prescreened) and would repeat its coupled row.
func LatencyTable(w io.Writer, reports []bench.Report, decoupled bool) {
	l := mergeReports(reports)
	samplers := []string{latencyRandom, latencyGPBO, latencySVMCBO, latencyPeer}
	header := "svmcbo-rf ≤ random | gpbo ≤ random | gpbo < optuna-tpe-c"
	if decoupled {
		samplers[3], header = latencyCasmo, "svmcbo-rf ≤ random | gpbo ≤ random | gpbo < casmopolitan"
	}
	fmt.Fprintf(w, "| device:L (ms) | %s | %s |\n", strings.Join(samplers, " | "), header)
	fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---|", len(samplers)+3))
	for _, p := range l.problems {
		if isDecoupled(p) != decoupled || l.sums[key(p, latencyRandom)].Problem == "" {
			continue
		}
		cells := make([]string, 0, len(samplers)+3)
		for _, name := range samplers {
			cells = append(cells, l.cell(p, name))
		}
		at := func(name string) []float64 { return l.regrets[key(p, name)] }
		cells = append(cells,
			compare(at(latencySVMCBO), at(latencyRandom), false),
			compare(at(latencyGPBO), at(latencyRandom), false),
			compare(at(latencyGPBO), at(samplers[3]), true))
		fmt.Fprintf(w, "| %s | %s |\n", pairName(p), strings.Join(cells, " | "))
	}
}

// ModeTable writes what the free latency queries buy: per (device, L) run
// in both modes and per boa sampler, the median final feasible regret
// coupled → decoupled, with the two-sided Mann–Whitney p.
func ModeTable(w io.Writer, reports []bench.Report) {
	l := mergeReports(reports)
	samplers := []string{latencyRandom, latencyGPBO, latencySVMCBO}
	fmt.Fprintf(w, "| device:L (ms) | %s |\n|---|%s\n", strings.Join(samplers, " | "), strings.Repeat("---|", len(samplers)))
	for _, p := range l.problems {
		if !isDecoupled(p) || l.sums[key(p, latencyRandom)].Problem == "" {
			continue
		}
		coupled := strings.TrimSuffix(p, decoupledSuffix)
		cells := make([]string, len(samplers))
		for i, name := range samplers {
			c, d := l.regrets[key(coupled, name)], l.regrets[key(p, name)]
			cells[i] = "—"
			if len(c) > 0 && len(d) > 0 {
				cells[i] = fmt.Sprintf("%.3f → %.3f", bench.Median(c), bench.Median(d))
				if _, pv, err := stats.MannWhitneyU(c, d); err == nil {
					cells[i] += fmt.Sprintf(" (p %.2g)", pv)
				}
			}
		}
		fmt.Fprintf(w, "| %s | %s |\n", pairName(p), strings.Join(cells, " | "))
	}
}

const decoupledSuffix = ":decoupled"

func isDecoupled(problem string) bool { return strings.HasSuffix(problem, decoupledSuffix) }

// pairName is "device:L" of a problem name.
func pairName(problem string) string {
	return strings.TrimSuffix(strings.TrimPrefix(problem, "nb201-latency:"), decoupledSuffix)
}

// compare says whether x's median is ≤ y's (< when strict), with the
// Mann–Whitney p of the two samples.
func compare(x, y []float64, strict bool) string {
	if len(x) == 0 || len(y) == 0 {
		return "—"
	}
	mx, my := bench.Median(x), bench.Median(y)
	ok := mx <= my
	if strict {
		ok = mx < my
	}
	verdict := "yes"
	if !ok {
		verdict = "**no**"
	}
	_, p, err := stats.MannWhitneyU(x, y)
	if err != nil {
		return verdict
	}
	return fmt.Sprintf("%s (p %.2g)", verdict, p)
}
