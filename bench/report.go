package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Report is the outcome of a benchmark: every run and the summaries
// (the JSON object of DESIGN.md §2.5).
type Report struct {
	Results []RunResult `json:"results"`
	Summary []Summary   `json:"summary"`
}

// NewReport summarises runs.
func NewReport(runs []RunResult) *Report {
	return &Report{Results: runs, Summary: Summarize(runs)}
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	return json.NewEncoder(w).Encode(r)
}

// WriteDir writes results.json, report.md and the PNG plots into dir.
func (r *Report) WriteDir(dir, command string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "results.json"))
	if err != nil {
		return err
	}
	if err := r.WriteJSON(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	plots, err := r.WritePlots(dir)
	if err != nil {
		return err
	}
	md, err := os.Create(filepath.Join(dir, "report.md"))
	if err != nil {
		return err
	}
	defer md.Close()
	return r.WriteMarkdown(md, command, plots)
}

// checkpoints are the fractions of the budget at which the report gives
// the median regret (or best value).
var checkpoints = []float64{0.25, 0.5, 1}

// WriteMarkdown writes the report's tables: per problem, for each
// optimiser the median and IQR of regret (or of the best value where the
// optimum is unknown) at checkpoints of the budget, mean rank, wins and
// median suggestion time. plots are file names to link.
func (r *Report) WriteMarkdown(w io.Writer, command string, plots []string) error {
	fmt.Fprintf(w, "# Benchmark report\n\n")
	if command != "" {
		fmt.Fprintf(w, "Command: `%s`  \n", command)
	}
	fmt.Fprintf(w, "Generated: %s\n\n", time.Now().UTC().Format(time.RFC3339))
	failed := 0
	for _, run := range r.Results {
		if run.Error != "" {
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(w, "%d runs failed and are left out of the tables (see `error` in results.json).\n\n", failed)
	}
	for _, problem := range r.problems() {
		fmt.Fprintf(w, "## %s\n\n", problem)
		runs := r.runsOf(problem)
		m := metricOf(runs)
		budget := 0
		for _, run := range runs {
			budget = max(budget, len(run.Best))
		}
		head := []string{"sampler"}
		for _, c := range checkpoints {
			head = append(head, fmt.Sprintf("median %s @%d (IQR)", m, checkpoint(c, budget)))
		}
		head = append(head, "mean rank", "wins", "median suggest s")
		if m == testRegret && hasRegret(runs) {
			head = append(head, "median observed regret")
		}
		scored := slices.ContainsFunc(r.Summary, func(s Summary) bool { return s.Problem == problem && s.NormalisedScore != nil })
		if scored {
			head = append(head, "normalised score")
		}
		constrained := runs[0].FeasibleShare != nil
		if constrained {
			head = append(head, "feasible share", "runs without a feasible point")
		}
		multi := m == hvGap
		if multi {
			fmt.Fprintf(w, "Objectives %s, all minimised; the true front's hypervolume %.6g at the problem's reference point "+
				"(docs/multiobjective.md). The hypervolume gap is the true front's less the observed front's.\n\n",
				strings.Join(runs[0].Objectives, ", "), *runs[0].FrontHV)
			head = append(head, "median hypervolume (IQR)", "median HV ratio", "median log10 HV gap")
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, s := range r.Summary {
			if s.Problem != problem {
				continue
			}
			row := []string{"`" + s.Sampler + "`"}
			for _, c := range checkpoints {
				vals := valuesAt(runs, s.Sampler, checkpoint(c, budget), m)
				row = append(row, medianIQR(vals))
			}
			row = append(row, fmt.Sprintf("%.2f", s.MeanRank), fmt.Sprint(s.Wins), fmt.Sprintf("%.3g", s.MedianSuggestSeconds))
			if m == testRegret && hasRegret(runs) {
				row = append(row, optional(s.MedianRegret))
			}
			if scored {
				row = append(row, optional(s.NormalisedScore))
			}
			if constrained && s.FeasibleShare != nil {
				row = append(row, fmt.Sprintf("%.3f", *s.FeasibleShare), fmt.Sprint(s.NoFeasible))
			}
			if multi && s.MedianHV != nil {
				hvs := collect(runs, func(r RunResult) *float64 {
					if r.Sampler != s.Sampler {
						return nil
					}
					return r.FinalHV
				})
				row = append(row, medianIQR(hvs), fmt.Sprintf("%.4f", *s.MedianHVRatio), logGap(*s.MedianLogHVGap))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
		fmt.Fprintln(w)
	}
	for _, p := range plots {
		fmt.Fprintf(w, "![%s](%s)\n\n", strings.TrimSuffix(p, ".png"), p)
	}
	return nil
}

// medianIQR writes the median and IQR of vals; "no feasible point" when
// half of the runs have none yet (the median is +Inf).
func medianIQR(vals []float64) string {
	m, iqr := Median(vals), IQR(vals)
	switch {
	case math.IsInf(m, 1):
		return "no feasible point"
	case math.IsInf(iqr, 1):
		return fmt.Sprintf("%.4g (–)", m)
	}
	return fmt.Sprintf("%.4g (%.2g)", m, iqr)
}

func checkpoint(frac float64, budget int) int { return max(1, int(math.Round(frac*float64(budget)))) }

// metric is what a problem's tables, ranks and plots show: the test regret
// of the incumbent where the problem scores one (held-out data, or the
// noise-free function of a noisy one), since that is what a user gets and
// the observed best of a noisy run rewards lucky draws (issue 37); else the
// regret where the optimum is known; else the best value.
type metric int

const (
	bestValue metric = iota
	regret
	testRegret
	hvGap // multi-objective problems: the true front's hypervolume less the observed front's
)

func (m metric) String() string {
	return [...]string{"best value", "regret", "test regret", "hypervolume gap"}[m]
}

func metricOf(runs []RunResult) metric {
	switch {
	case len(runs) > 0 && runs[0].FrontHV != nil:
		return hvGap
	case hasTestRegret(runs):
		return testRegret
	case hasRegret(runs):
		return regret
	}
	return bestValue
}

// after is r's figure by m after n evaluations (n ≤ len(r.Best)); +Inf
// before the first (feasible) incumbent.
func (m metric) after(r RunResult, n int) float64 {
	switch m {
	case testRegret:
		return r.TestRegrets[n-1]
	case hvGap:
		return r.Best[n-1]
	case regret:
		return r.Best[n-1] - r.optimum
	}
	return r.Best[n-1]
}

// valuesAt is the figure by m of each run of sampler after n evaluations.
func valuesAt(runs []RunResult, sampler string, n int, m metric) []float64 {
	var v []float64
	for _, r := range runs {
		if r.Sampler != sampler || r.Error != "" || len(r.Best) < n {
			continue
		}
		v = append(v, m.after(r, n))
	}
	return v
}

// logGap writes log10 of a hypervolume gap; −∞ when the true front's
// hypervolume was reached.
func logGap(v Number) string {
	if math.IsInf(float64(v), -1) {
		return "−∞ (front found)"
	}
	return fmt.Sprintf("%.3f", float64(v))
}

func optional(v *float64) string {
	if v == nil {
		return "–"
	}
	return fmt.Sprintf("%.4g", *v)
}

func (r *Report) problems() []string {
	var out []string
	for _, s := range r.Summary {
		if !slices.Contains(out, s.Problem) {
			out = append(out, s.Problem)
		}
	}
	return out
}

func (r *Report) runsOf(problem string) []RunResult {
	var out []RunResult
	for _, run := range r.Results {
		if run.Problem == problem && run.Error == "" {
			out = append(out, run)
		}
	}
	return out
}

func hasRegret(runs []RunResult) bool {
	return len(runs) > 0 && runs[0].Regret != nil
}

func hasTestRegret(runs []RunResult) bool {
	return len(runs) > 0 && runs[0].TestRegrets != nil
}
