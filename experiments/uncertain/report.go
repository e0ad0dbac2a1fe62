package uncertain

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// displayNames are the column heads of the tables.
var displayNames = map[string]string{
	"rbf": "RBF", "rq": "RatQuad", "analytic": "Analytic", "nigp": "NIGP",
	"randfunc": "RandFunc", "utgp": "UTGP", "utgp-full": "UTGP (full)",
}

func display(m string) string {
	if n, ok := displayNames[m]; ok {
		return n
	}
	return m
}

// columns orders models as the thesis's tables do, then any other model
// (utgp-full) in the order run.
func columns(models []string) []string { return ordered(models, publishedOrder[:]) }

// ordered is the models of order that were run, in that order, then the
// others in the order run.
func ordered(models, order []string) []string {
	var out []string
	for _, m := range order {
		if slices.Contains(models, m) {
			out = append(out, m)
		}
	}
	for _, m := range models {
		if !slices.Contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

// FormatStat writes mean (SD) [SE] with prec decimals, and ✗k when k seeds
// failed to fit (they are left out of the statistics).
func FormatStat(s Stat, prec int) string {
	if s.N == 0 {
		return fmt.Sprintf("— ✗%d", s.Failed)
	}
	out := fmt.Sprintf("%.*f (%.*f) [%.*f]", prec, s.Mean, prec, s.SD, prec, s.SE)
	if s.Failed > 0 {
		out += fmt.Sprintf(" ✗%d", s.Failed)
	}
	return out
}

// Table writes Table 3.2 (sqErr false: the summed log-likelihood) or Table
// 3.3 (sqErr true: Σ(μ − f)²) in the thesis's layout, one row of ours, mean
// (SD) [SE] over the seeds, and under it the thesis's mean (bracket) where
// the cell is one of its tables'. noisy scores with V + σ_n² instead of the
// latent V.
func (r *Results) Table(sqErr, noisy bool) string {
	metric, prec, pub := MetricLL, 1, publishedLL
	if sqErr {
		metric, prec, pub = MetricSqErr, 2, publishedSqErr
	} else if noisy {
		metric = MetricLLNoisy
	}
	cols := columns(r.Models)
	var b strings.Builder
	b.WriteString("| task | σ_x | N_train | |")
	for _, m := range cols {
		b.WriteString(" " + display(m) + " |")
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "| %s | %g | %d | ours (%d seeds) |", c.Task, c.SigmaX, c.NTrain, len(r.Seeds))
		for _, m := range cols {
			b.WriteString(" " + FormatStat(r.Stat(c, m, metric), prec) + " |")
		}
		b.WriteString("\n")
		p, ok := pub[cellKey{c.Task, c.SigmaX, c.NTrain}]
		if !ok {
			continue
		}
		b.WriteString("| | | | thesis |")
		for _, m := range cols {
			i := slices.Index(publishedOrder[:], m)
			if i < 0 {
				b.WriteString(" |")
				continue
			}
			fmt.Fprintf(&b, " %.1f (%.1f) |", p[i].Mean, p[i].Bracket)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Table1D writes the 1-D study: per σ_x the mean (SD) [SE] of the summed
// test log-likelihood over the seeds, its median (closer to what one run
// shows when a few seeds go wrong) and the thesis's single-seed value.
func (r *Results) Table1D(noisy bool) string {
	metric := MetricLL
	if noisy {
		metric = MetricLLNoisy
	}
	cols := order1D(r.Models)
	var b strings.Builder
	b.WriteString("| σ_x | |")
	for _, m := range cols {
		b.WriteString(" " + display(m) + " |")
	}
	b.WriteString("\n|---|---|" + strings.Repeat("---|", len(cols)) + "\n")
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "| %g | ours (%d seeds) |", c.SigmaX, len(r.Seeds))
		for _, m := range cols {
			b.WriteString(" " + FormatStat(r.Stat(c, m, metric), 1) + " |")
		}
		fmt.Fprintf(&b, "\n| %g | ours, median |", c.SigmaX)
		for _, m := range cols {
			fmt.Fprintf(&b, " %.1f |", r.Stat(c, m, metric).Median)
		}
		fmt.Fprintf(&b, "\n| %g | thesis (1 run) |", c.SigmaX)
		for _, m := range cols {
			if v, ok := Published1D[c.SigmaX][m]; ok {
				fmt.Fprintf(&b, " %.1f |", v)
			} else {
				b.WriteString(" |")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// order1D is the order of Figs. 3.4–3.5's captions and of the §8.6 line.
func order1D(models []string) []string {
	return ordered(models, []string{"rbf", "rq", "analytic", "nigp", "randfunc", "utgp", "utgp-full"})
}

// Timing writes the mean fit time per seed of each model in each cell, and
// the cell's total, so the cost of the cells not run can be estimated.
func (r *Results) Timing() string {
	cols := columns(r.Models)
	var b strings.Builder
	b.WriteString("| cell | seeds |")
	for _, m := range cols {
		b.WriteString(" " + display(m) + " s/seed |")
	}
	b.WriteString(" cell total s |\n|---|---|" + strings.Repeat("---|", len(cols)+1) + "\n")
	for _, c := range r.Cells {
		fmt.Fprintf(&b, "| %s | %d |", c, len(r.Seeds))
		var total float64
		for _, m := range cols {
			s := r.Stat(c, m, MetricSeconds)
			total += s.Mean * float64(s.N)
			fmt.Fprintf(&b, " %.2f |", s.Mean)
		}
		fmt.Fprintf(&b, " %.0f |\n", total)
	}
	return b.String()
}

// TotalSeconds is the summed fit time of every (cell, model, seed), the
// CPU-time of the run without its parallelism.
func (r *Results) TotalSeconds() float64 {
	var t float64
	for _, c := range r.Cells {
		for _, m := range r.Models {
			for _, s := range r.Scores[c][m] {
				if !math.IsNaN(s.Seconds) {
					t += s.Seconds
				}
			}
		}
	}
	return t
}

// Catastrophes writes, per model, how many (cell, seed) fits scored below
// −10⁴ (§8.6's line) or failed, and in how many cells the mean did: the
// tables' means hide whether one seed or many went wrong.
func (r *Results) Catastrophes(noisy bool) string {
	metric := MetricLL
	if noisy {
		metric = MetricLLNoisy
	}
	var b strings.Builder
	b.WriteString("| model | fits below −10⁴ | failed fits | cells with mean below −10⁴ | of fits, cells | test points clamped (UTGP) | fits with Cholesky failures (RandFunc) |\n|---|---|---|---|---|---|---|\n")
	for _, m := range columns(r.Models) {
		var below, failed, cells, fits, clamped, chol int
		for _, c := range r.Cells {
			for _, s := range r.Scores[c][m] {
				clamped += s.Clamped
				if s.CholFail > 0 {
					chol++
				}
			}
			v := r.Values(c, m, metric)
			for _, x := range v {
				fits++
				switch {
				case math.IsNaN(x):
					failed++
				case x < Catastrophe:
					below++
				}
			}
			if s := Summarize(v); s.Mean < Catastrophe {
				cells++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d, %d | %d | %d |\n", display(m), below, failed, cells, fits, len(r.Cells), clamped, chol)
	}
	return b.String()
}
