package bench

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"regexp"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WritePlots writes, into dir, one PNG per problem with the median
// best-so-far curve (regret on a log scale where the optimum is known) of
// each optimiser and its interquartile band, and suggest-time.png with the
// median suggestion time against the number of observations. It returns
// the file names; there are none when every run failed.
func (r *Report) WritePlots(dir string) ([]string, error) {
	var files []string
	for _, problem := range r.problems() {
		name := "curve-" + fileSafe(problem) + ".png"
		if err := r.curvePlot(problem, filepath.Join(dir, name)); err != nil {
			return files, fmt.Errorf("plot %s: %w", problem, err)
		}
		files = append(files, name)
	}
	if len(r.Summary) == 0 {
		// Every run failed: nothing to plot, and gonum's log axis panics
		// on an empty plot.
		return files, nil
	}
	if err := r.suggestPlot(filepath.Join(dir, "suggest-time.png")); err != nil {
		return files, fmt.Errorf("plot suggestion times: %w", err)
	}
	return append(files, "suggest-time.png"), nil
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileSafe(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

// floor keeps regrets positive on a log axis.
const floor = 1e-12

func (r *Report) curvePlot(problem, file string) error {
	runs := r.runsOf(problem)
	m := metricOf(runs)
	asRegret := m != bestValue
	p := plot.New()
	p.Title.Text = problem
	p.X.Label.Text = "evaluations"
	p.Y.Label.Text = "best value so far (median, IQR)"
	if asRegret {
		p.Y.Label.Text = m.String() + " (median, IQR)"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	lowest, highest := math.Inf(1), math.Inf(-1) // of the medians and quartiles drawn
	for i, s := range r.samplersOf(problem) {
		budget := 0
		for _, run := range runs {
			if run.Sampler == s {
				budget = max(budget, len(run.Best))
			}
		}
		var mid, lo, hi plotter.XYs
		for n := 1; n <= budget; n++ {
			v := valuesAt(runs, s, n, m)
			if len(v) == 0 {
				continue
			}
			m, q1, q3 := Median(v), Quantile(v, 0.25), Quantile(v, 0.75)
			if math.IsInf(q3, 1) {
				continue // a quarter of the runs have no feasible point yet
			}
			if asRegret {
				m, q1, q3 = max(m, floor), max(q1, floor), max(q3, floor)
			}
			lowest, highest = min(lowest, q1), max(highest, q3)
			x := float64(n)
			mid = append(mid, plotter.XY{X: x, Y: m})
			lo = append(lo, plotter.XY{X: x, Y: q1})
			hi = append(hi, plotter.XY{X: x, Y: q3})
		}
		if len(mid) == 0 {
			continue
		}
		c := plotutil.Color(i)
		band := append(append(plotter.XYs{}, lo...), reversed(hi)...)
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return err
		}
		r8, g8, b8, _ := c.RGBA()
		poly.Color = color.NRGBA{R: uint8(r8 >> 8), G: uint8(g8 >> 8), B: uint8(b8 >> 8), A: 50}
		poly.LineStyle.Width = 0
		line, err := plotter.NewLine(mid)
		if err != nil {
			return err
		}
		line.Color = c
		line.Width = vg.Points(1.5)
		p.Add(poly, line)
		p.Legend.Add(s, line)
	}
	if asRegret && !(lowest < highest) {
		// One value throughout (a hypervolume gap no run reduced): gonum's
		// log axis panics on an empty range.
		if math.IsInf(lowest, 0) {
			lowest = 1
		}
		p.Y.Min, p.Y.Max = lowest/10, lowest*10
	}
	p.Legend.Top = true
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, file)
}

func (r *Report) suggestPlot(file string) error {
	p := plot.New()
	p.Title.Text = "suggestion time"
	p.X.Label.Text = "observations"
	p.Y.Label.Text = "seconds (median over runs)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	for i, s := range r.samplers() {
		var perN [][]float64
		for _, run := range r.Results {
			if run.Sampler != s || run.Error != "" {
				continue
			}
			for n, sec := range run.SuggestSeconds {
				for len(perN) <= n {
					perN = append(perN, nil)
				}
				perN[n] = append(perN[n], sec)
			}
		}
		var xy plotter.XYs
		for n, v := range perN {
			xy = append(xy, plotter.XY{X: float64(n), Y: max(Median(v), 1e-7)})
		}
		if len(xy) == 0 {
			continue
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return err
		}
		line.Color = plotutil.Color(i)
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(s, line)
	}
	p.Legend.Top = true
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, file)
}

func (r *Report) samplersOf(problem string) []string {
	var out []string
	for _, s := range r.Summary {
		if s.Problem == problem {
			out = append(out, s.Sampler)
		}
	}
	return out
}

func (r *Report) samplers() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.Summary {
		if !seen[s.Sampler] {
			seen[s.Sampler] = true
			out = append(out, s.Sampler)
		}
	}
	return out
}

func reversed(xy plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, len(xy))
	for i, p := range xy {
		out[len(xy)-1-i] = p
	}
	return out
}
