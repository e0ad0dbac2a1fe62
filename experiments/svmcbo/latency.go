package svmcbo

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/stats"
)

// The samplers of the NB201 latency study [spec constrained-autotinyml
// §7.4]: SVM-CBO_RF and random search; in place of the spec's
// penalty-based GP-BO, boa's gpbo with its constraint models (issue 34's
// acceptance; docs/samplers.md, "Constraints"); and Optuna's constrained
// TPE, the peer.
const (
	latencyRandom = "random"
	latencyGPBO   = "gpbo"
	latencySVMCBO = "svmcbo-rf"
	latencyPeer   = "optuna-tpe-c"
)

// LatencyTable writes the NB201 latency study from the reports of boa
// bench (results.json): per problem (device, L) and sampler the median
// feasible regret at the budget, the median test regret and the share of
// feasible evaluations, then the acceptance comparisons of spec §7.4 and
// issue 34 with the two-sided Mann–Whitney p of each (a run without a
// feasible point counts as +Inf).
func LatencyTable(w io.Writer, reports []bench.Report) {
	samplers := []string{latencyRandom, latencyGPBO, latencySVMCBO, latencyPeer}
	fmt.Fprintf(w, "| device:L (ms) | %s | svmcbo-rf ≤ random | gpbo ≤ random | gpbo < optuna-tpe-c |\n", strings.Join(samplers, " | "))
	fmt.Fprintf(w, "|---|%s\n", strings.Repeat("---|", len(samplers)+3))
	for _, r := range reports {
		regrets := finalRegrets(r.Results)
		for _, s := range r.Summary {
			if s.Sampler != latencyRandom {
				continue
			}
			cells := make([]string, 0, len(samplers)+3)
			for _, name := range samplers {
				cells = append(cells, summaryCell(r.Summary, s.Problem, name))
			}
			at := func(name string) []float64 { return regrets[s.Problem+"\x00"+name] }
			cells = append(cells,
				compare(at(latencySVMCBO), at(latencyRandom), false),
				compare(at(latencyGPBO), at(latencyRandom), false),
				compare(at(latencyGPBO), at(latencyPeer), true))
			fmt.Fprintf(w, "| %s | %s |\n", strings.TrimPrefix(s.Problem, "nb201-latency:"), strings.Join(cells, " | "))
		}
	}
}

// finalRegrets collects each (problem, sampler)'s final feasible regrets,
// +Inf for a run that found no feasible point.
func finalRegrets(runs []bench.RunResult) map[string][]float64 {
	out := map[string][]float64{}
	for _, r := range runs {
		if r.Error != "" {
			continue
		}
		v := math.Inf(1)
		if r.Regret != nil {
			v = *r.Regret
		}
		k := r.Problem + "\x00" + r.Sampler
		out[k] = append(out[k], v)
	}
	return out
}

// summaryCell is "median regret / median test regret / feasible share".
func summaryCell(sums []bench.Summary, problem, sampler string) string {
	for _, s := range sums {
		if s.Problem == problem && s.Sampler == sampler && s.MedianRegret != nil && s.MedianTestRegret != nil && s.FeasibleShare != nil {
			return fmt.Sprintf("%.3f / %.3f / %.2f", *s.MedianRegret, *s.MedianTestRegret, *s.FeasibleShare)
		}
	}
	return "—"
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
