package svmcbo

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/boaopt/boa/stats"
)

// Modes pairs each mode's name with its SVM-CBO and SVM-CBO_RF methods.
var Modes = []struct{ Name, CBO, RF string }{
	{"code_compat", "cbo-code", "rf-code"},
	{"default", "cbo", "rf"},
}

// Acceptance is one line of spec §9.1's acceptance (R1, R2) in one mode.
type Acceptance struct {
	Mode, Line string
	Met        bool
}

// Report writes one markdown table per mode, next to the published
// numbers, and returns the acceptance lines of spec §9.1 it could check.
func (r Results) Report(w io.Writer, p Protocol) []Acceptance {
	var acc []Acceptance
	for _, m := range Modes {
		fmt.Fprintf(w, "\n### %s mode (%d runs × %d evaluations)\n\n", m.Name, p.Runs, p.Budget)
		fmt.Fprintln(w, "| function | SMAC | SVM-CBO | SVM-CBO_RF | p SMAC vs CBO | p SMAC vs CBO_RF | p CBO vs CBO_RF | published SMAC / CBO / CBO_RF (p) |")
		fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
		for _, pn := range p.Problems {
			runs := r[pn]
			pv := pvalues(runs, m.CBO, m.RF)
			pub := "—"
			if v, ok := Published[pn]; ok {
				pub = fmt.Sprintf("%g / %g / %g (%g, %g, %g)", v[0], v[2], v[4], v[6], v[7], v[8])
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", pn,
				cell(runs["smac"]), cell(runs[m.CBO]), cell(runs[m.RF]), pcell(pv[0]), pcell(pv[1]), pcell(pv[2]), pub)
		}
		mean := func(pn, method string) float64 {
			mu, _, _ := meanStd(r[pn][method])
			return mu
		}
		within := func(pn string, target float64) {
			if !slices.Contains(p.Problems, pn) {
				return
			}
			v := mean(pn, m.CBO)
			acc = append(acc, Acceptance{m.Name, fmt.Sprintf("SVM-CBO mean on %s %.4f within 1 %% of %g", pn, v, target), math.Abs(v-target) <= 0.01*math.Abs(target)})
		}
		order := func(pn string, rfWorse bool) {
			if !slices.Contains(p.Problems, pn) {
				return
			}
			c, f := mean(pn, m.CBO), mean(pn, m.RF)
			if rfWorse {
				acc = append(acc, Acceptance{m.Name, fmt.Sprintf("SVM-CBO_RF mean %.4f ≥ SVM-CBO mean %.4f on %s", f, c, pn), f >= c})
			} else {
				acc = append(acc, Acceptance{m.Name, fmt.Sprintf("SVM-CBO_RF mean %.4f ≤ SVM-CBO mean %.4f on %s", f, c, pn), f <= c})
			}
		}
		within("branin_c", -1.047)
		within("mishra_bird_c", -106.76)
		order("branin_c", true)
		order("rosenbrock_c", true)
		order("mishra_bird_c_disc", false)
	}
	fmt.Fprintln(w, "\nAcceptance (spec §9.1, R1/R2):")
	fmt.Fprintln(w)
	for _, a := range acc {
		verdict := "met"
		if !a.Met {
			verdict = "NOT met"
		}
		fmt.Fprintf(w, "- %s: %s — %s\n", a.Mode, a.Line, verdict)
	}
	return acc
}

// cell is "mean (±std)", with the number of runs without a feasible point.
func cell(v []float64) string {
	mu, sd, missing := meanStd(v)
	s := fmt.Sprintf("%.4g (±%.3g)", mu, sd)
	if missing > 0 {
		s += fmt.Sprintf(" [%d runs infeasible]", missing)
	}
	return s
}

// pcell is the p-value with the stars of spec §8's Decision.
func pcell(p float64) string {
	if math.IsNaN(p) {
		return "—"
	}
	return fmt.Sprintf("%.3g %s", p, stats.Stars(p))
}
