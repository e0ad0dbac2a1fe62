package report

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Study is what a report shows: the analyses' input and what the summary
// names.
type Study struct {
	analysis.Study
	Name        string
	Sampler     string // how the summary names the sampler, e.g. "auto (gpbo)"
	Constraints string // the study's constraints as text; "" when it has none
	// Seed seeds the forests of the importances and the contour, so that
	// the same study gives the same report.
	Seed uint64
}

// Report is what Write wrote, file names relative to the directory.
type Report struct {
	Files []string // the PNGs, then report.md
	// Skipped says, per plot left out, why (also written in report.md).
	Skipped []string
}

// Write writes the plots and report.md into dir, creating it if needed,
// and overwriting files of the same names. Nothing else in dir is touched.
func Write(dir string, s Study) (Report, error) {
	if s.Space == nil {
		return Report{}, errors.New("report: the study has no space")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Report{}, fmt.Errorf("report: %w", err)
	}
	w := &writer{dir: dir, s: s}
	w.plots()
	if w.err != nil {
		return Report{}, w.err
	}
	md := w.markdown()
	if err := os.WriteFile(filepath.Join(dir, "report.md"), []byte(md), 0o644); err != nil {
		return Report{}, fmt.Errorf("report: %w", err)
	}
	r := Report{Skipped: w.skipped}
	for _, sec := range w.sections {
		r.Files = append(r.Files, sec.files...)
	}
	r.Files = append(r.Files, "report.md")
	return r, nil
}

// section is one heading of report.md with its plots and text.
type section struct {
	title string
	text  string
	files []string
}

type writer struct {
	dir      string
	s        Study
	sections []section
	skipped  []string
	imp      []analysis.Importance
	impErr   error
	err      error // the first error writing a file
}

// skip records a plot left out and why.
func (w *writer) skip(title, why string) {
	w.skipped = append(w.skipped, title+": "+why)
	w.sections = append(w.sections, section{title: title, text: "Not drawn: " + why + "."})
}

// add records a section whose plot render wrote to file (unless it failed).
func (w *writer) add(title, text, file string, render func(path string) error) {
	if w.err != nil {
		return
	}
	if err := render(filepath.Join(w.dir, file)); err != nil {
		w.err = fmt.Errorf("report: %s: %w", file, err)
		return
	}
	w.sections = append(w.sections, section{title: title, text: text, files: []string{file}})
}

func (w *writer) plots() {
	s := w.s
	if h := analysis.History(s.Study); len(h) > 0 {
		w.add("History", "Each finished trial's value (COMPLETE; PRUNED at the value it stopped at; infeasible ones marked) and the best feasible value so far.",
			"history.png", func(p string) error { return historyPlot(s, h, p) })
	} else {
		w.skip("History", "no trial has finished")
	}
	w.imp, w.impErr = analysis.Importances(s.Study, s.Seed)
	if w.impErr == nil {
		w.add("Importances", importanceText(w.imp), "importance.png", func(p string) error { return importancePlot(w.imp, p) })
	} else {
		w.skip("Importances", trimPrefix(w.impErr))
	}
	if v, sh := analysis.EDF(s.Study); len(v) > 0 {
		w.add("Empirical distribution", "The share of COMPLETE trials with a value at most x.", "edf.png",
			func(p string) error { return edfPlot(v, sh, p) })
	} else {
		w.skip("Empirical distribution", "no COMPLETE trial")
	}
	if cs := analysis.Curves(s.Study); len(cs) > 0 {
		text := "The intermediate values each trial reported (BOA_REPORT); PRUNED trials in orange, marked where they stopped."
		if len(cs) > maxCurves {
			text += fmt.Sprintf(" %d of %d curves are drawn: PRUNED and other curves in proportion (a quarter at least for the PRUNED ones), each evenly spread over the study, and the best trial's.", maxCurves, len(cs))
		}
		w.add("Intermediate values", text, "intermediate.png", func(p string) error { return curvesPlot(s, cs, p) })
	} else {
		w.skip("Intermediate values", "no trial reported intermediate values")
	}
	w.slices()
	w.contour()
	if sp := analysis.Timeline(s.Study); len(sp) > 0 {
		w.add("Timeline", "When each trial ran, one row per worker, coloured by state.", "timeline.png",
			func(p string) error { return timelinePlot(sp, p) })
	} else {
		w.skip("Timeline", "no trial has started")
	}
}

// slices writes one slice plot per parameter, in declaration order, in
// one section.
func (w *writer) slices() {
	sec := section{title: "Slices", text: "Each COMPLETE trial's value against one parameter (where it is active); infeasible trials marked."}
	for _, name := range w.s.Space.Names() {
		pts, err := analysis.Slice(w.s.Study, name)
		if err != nil || len(pts) == 0 {
			continue
		}
		file := "slice-" + fileSafe(name) + ".png"
		for k := 2; slices.Contains(sec.files, file); k++ {
			// "a b" and "a_b" would share a file name.
			file = fmt.Sprintf("slice-%s-%d.png", fileSafe(name), k)
		}
		if err := slicePlot(w.s, name, pts, filepath.Join(w.dir, file)); err != nil {
			w.err = fmt.Errorf("report: %s: %w", file, err)
			return
		}
		sec.files = append(sec.files, file)
	}
	if len(sec.files) == 0 {
		w.skip("Slices", "no COMPLETE trial")
		return
	}
	w.sections = append(w.sections, sec)
}

// contour draws the two most important parameters (by importance; in
// declaration order when importances are not available).
func (w *writer) contour() {
	var names []string
	for _, m := range w.imp {
		if i, _ := w.s.Space.Index(m.Param); w.s.Space.Levels(i) != 1 {
			names = append(names, m.Param)
		}
	}
	if len(names) < 2 {
		w.skip("Contour", "it needs two parameters that vary, active in every COMPLETE trial, and their importances")
		return
	}
	px, py := names[0], names[1]
	c, err := analysis.ContourOf(w.s.Study, px, py, 40, w.s.Seed)
	if err != nil {
		w.skip("Contour", trimPrefix(err))
		return
	}
	text := fmt.Sprintf("The forest's prediction over the two most important parameters, %s and %s, the others at the best trial's values, with the COMPLETE trials as points.", px, py)
	w.add("Contour", text, "contour.png", func(p string) error { return contourPlot(w.s, px, py, c, p) })
}

func trimPrefix(err error) string { return strings.TrimPrefix(err.Error(), "analysis: ") }

func importanceText(imp []analysis.Importance) string {
	var b strings.Builder
	b.WriteString("fANOVA (Hutter, Hoos & Leyton-Brown 2014) on a random forest of the COMPLETE trials, as Optuna's FanovaImportanceEvaluator: each parameter's share of the variance of the objective (docs/report.md).\n\n| parameter | share |\n|---|---|\n")
	for _, m := range imp {
		fmt.Fprintf(&b, "| %s | %.3f |\n", m.Param, m.Share)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// markdown is report.md: the summary, then every section.
func (w *writer) markdown() string {
	s := w.s
	var b strings.Builder
	fmt.Fprintf(&b, "# Study %s\n\n", s.Name)
	fmt.Fprintf(&b, "Direction %s", s.Direction)
	if s.Sampler != "" {
		fmt.Fprintf(&b, ", sampler %s", s.Sampler)
	}
	fmt.Fprintf(&b, ", %d trials.\n\n", len(s.Trials))
	counts := map[study.State]int{}
	feasible, infeasible := 0, 0
	for _, t := range s.Trials {
		counts[t.State]++
		if t.State == study.Complete && t.Feasible != nil {
			if *t.Feasible {
				feasible++
			} else {
				infeasible++
			}
		}
	}
	b.WriteString("| state | trials |\n|---|---|\n")
	for _, st := range []study.State{study.Complete, study.Pruned, study.Failed, study.Running, study.Waiting} {
		fmt.Fprintf(&b, "| %s | %d |\n", st, counts[st])
	}
	b.WriteString("\n")
	if s.Constraints != "" {
		fmt.Fprintf(&b, "Constraints %s: %d feasible, %d infeasible, %d failed (not computable).\n\n", s.Constraints, feasible, infeasible, counts[study.Failed])
	}
	if best, ok := bestOf(s.Study); ok {
		label := "Best trial"
		if s.Constraints != "" {
			label = "Best feasible trial"
		}
		fmt.Fprintf(&b, "%s: **%d**, value **%.6g**.\n\n| parameter | value |\n|---|---|\n", label, best.Number, best.Value)
		for _, name := range s.Space.Names() {
			if v, ok := best.Params[name]; ok {
				fmt.Fprintf(&b, "| %s | %s |\n", name, space.Format(v))
			}
		}
		b.WriteString("\n")
	} else if infeasible > 0 {
		fmt.Fprintf(&b, "No feasible trial: %d complete, all infeasible.\n\n", infeasible)
	} else {
		b.WriteString("No COMPLETE trial yet.\n\n")
	}
	if counts[study.Failed] > 0 {
		fmt.Fprintf(&b, "%d trials FAILED; `boa trials %s` lists them with their reasons.\n\n", counts[study.Failed], s.Name)
	}
	if len(s.Trials) > maxPoints {
		fmt.Fprintf(&b, "With %d trials, each scatter series draws at most %d points: the %d best and an even spread of the rest; the best-so-far line keeps every change of the best.\n\n", len(s.Trials), maxPoints, maxPoints/10)
	}
	for _, sec := range w.sections {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", sec.title, sec.text)
		for _, f := range sec.files {
			fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(f, ".png"), f)
		}
	}
	return b.String()
}

// bestOf is the best feasible COMPLETE trial in the study's direction, the
// first of equal ones.
func bestOf(s analysis.Study) (study.Trial, bool) {
	var best *study.Trial
	for i := range s.Trials {
		t := &s.Trials[i]
		if t.State != study.Complete || math.IsNaN(t.Value) || (t.Feasible != nil && !*t.Feasible) {
			continue
		}
		if best == nil || better(s.Direction, t.Value, best.Value) {
			best = t
		}
	}
	if best == nil {
		return study.Trial{}, false
	}
	return *best, true
}

func better(d study.Direction, v, w float64) bool {
	if d == study.Maximize {
		return v > w
	}
	return v < w
}
