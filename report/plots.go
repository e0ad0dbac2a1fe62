package report

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// The size of every plot, as bench's.
const (
	width  = 16 * vg.Centimeter
	height = 11 * vg.Centimeter
)

// maxCurves bounds the learning curves drawn; maxHistory the points of
// the best-so-far line.
// maxPoints bounds the points of one scatter series (thin).
const (
	maxCurves  = 500
	maxHistory = 4000
	maxPoints  = 5000
)

// thin keeps at most maxPoints of a scatter series, so that a 50,000-trial
// study draws in seconds: the maxPoints/10 best by value (lowest, or
// highest when maximising), which are what a reader looks for, and an
// even spread of the rest, in the original order.
func thin(xy plotter.XYs, value func(i int) float64, maximize bool) plotter.XYs {
	if len(xy) <= maxPoints {
		return xy
	}
	idx := make([]int, len(xy))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		va, vb := value(a), value(b)
		if maximize {
			va, vb = vb, va
		}
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	keep := make([]bool, len(xy))
	nBest := maxPoints / 10
	for _, i := range idx[:nBest] {
		keep[i] = true
	}
	rest := maxPoints - nBest
	for k := range rest {
		keep[k*len(xy)/rest] = true
	}
	out := make(plotter.XYs, 0, maxPoints)
	for i, k := range keep {
		if k {
			out = append(out, xy[i])
		}
	}
	return out
}

// thinByY thins a series whose Y is the value.
func thinByY(xy plotter.XYs, maximize bool) plotter.XYs {
	return thin(xy, func(i int) float64 { return xy[i].Y }, maximize)
}

var (
	blue   = color.NRGBA{R: 31, G: 119, B: 180, A: 255}
	orange = color.NRGBA{R: 255, G: 127, B: 14, A: 255}
	red    = color.NRGBA{R: 214, G: 39, B: 40, A: 255}
	grey   = color.NRGBA{R: 150, G: 150, B: 150, A: 255}
	green  = color.NRGBA{R: 44, G: 160, B: 44, A: 255}
)

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func fileSafe(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

// finite drops points with a NaN or infinite coordinate (gonum refuses them).
func finite(xy plotter.XYs) plotter.XYs {
	return slices.DeleteFunc(xy, func(p plotter.XY) bool {
		return math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0)
	})
}

// scatter adds the points (if any) with a glyph and a legend entry.
func scatter(p *plot.Plot, xy plotter.XYs, c color.Color, shape draw.GlyphDrawer, label string) error {
	xy = finite(xy)
	if len(xy) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(2), Shape: shape}
	p.Add(sc)
	if label != "" {
		p.Legend.Add(label, sc)
	}
	return nil
}

func historyPlot(s Study, h []analysis.HistoryPoint, file string) error {
	p := plot.New()
	p.Title.Text = s.Name + ": history"
	p.X.Label.Text = "trial"
	p.Y.Label.Text = "value"
	var ok, bad, pruned plotter.XYs
	for _, pt := range h {
		xy := plotter.XY{X: float64(pt.Number), Y: pt.Value}
		switch {
		case pt.State == study.Pruned:
			pruned = append(pruned, xy)
		case pt.State != study.Complete:
		case pt.Feasible != nil && !*pt.Feasible:
			bad = append(bad, xy)
		default:
			ok = append(ok, xy)
		}
	}
	for _, g := range []struct {
		xy    plotter.XYs
		c     color.Color
		shape draw.GlyphDrawer
		label string
	}{{ok, blue, draw.CircleGlyph{}, "complete"}, {bad, grey, draw.CrossGlyph{}, "infeasible"}, {pruned, orange, draw.TriangleGlyph{}, "pruned"}} {
		if err := scatter(p, thinByY(g.xy, s.Direction == study.Maximize), g.c, g.shape, g.label); err != nil {
			return err
		}
	}
	// The best so far as a step line, downsampled where it does not move.
	var best plotter.XYs
	for _, pt := range analysis.Downsample(h, maxHistory) {
		if math.IsNaN(pt.Best) {
			continue
		}
		if n := len(best); n > 0 && best[n-1].Y != pt.Best {
			best = append(best, plotter.XY{X: float64(pt.Number), Y: best[n-1].Y})
		}
		best = append(best, plotter.XY{X: float64(pt.Number), Y: pt.Best})
	}
	if len(best) > 0 {
		l, err := plotter.NewLine(best)
		if err != nil {
			return err
		}
		l.Color, l.Width = red, vg.Points(1.5)
		p.Add(l)
		p.Legend.Add("best so far", l)
	}
	p.Legend.Top = true
	return p.Save(width, height, file)
}

func importancePlot(imp []analysis.Importance, file string) error {
	p := plot.New()
	p.Title.Text = "importances (fANOVA)"
	p.X.Label.Text = "share of the variance"
	// The most important on top.
	n := len(imp)
	vals := make(plotter.Values, n)
	names := make([]string, n)
	for i, m := range imp {
		vals[n-1-i] = m.Share
		names[n-1-i] = m.Param
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(min(20, 200/float64(max(n, 1)))))
	if err != nil {
		return err
	}
	bars.Horizontal = true
	bars.Color = blue
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.NominalY(names...)
	p.X.Min, p.X.Max = 0, 1
	return p.Save(width, height*vg.Length(max(1, float64(n)/12)), file)
}

func edfPlot(values, shares []float64, file string) error {
	p := plot.New()
	p.Title.Text = "empirical distribution of the values"
	p.X.Label.Text = "value"
	p.Y.Label.Text = "share of COMPLETE trials ≤ value"
	xy := make(plotter.XYs, 0, 2*len(values))
	for i, v := range values {
		prev := 0.0
		if i > 0 {
			prev = shares[i-1]
		}
		xy = append(xy, plotter.XY{X: v, Y: prev}, plotter.XY{X: v, Y: shares[i]})
	}
	l, err := plotter.NewLine(finite(xy))
	if err != nil {
		return err
	}
	l.Color, l.Width = blue, vg.Points(1.5)
	p.Add(l)
	p.Y.Min, p.Y.Max = 0, 1
	return p.Save(width, height, file)
}

// curvesPlot draws at most maxCurves curves: when there are more, PRUNED
// and other curves each get a share of the budget in proportion to their
// numbers (a quarter at least, when there are enough) and are picked
// evenly spread by number within it, so that a regular pattern of pruning
// cannot hide them; the best trial's curve is always drawn, last, on top.
func curvesPlot(s Study, cs []analysis.Curve, file string) error {
	p := plot.New()
	p.Title.Text = s.Name + ": intermediate values"
	p.X.Label.Text = "step"
	p.Y.Label.Text = "reported value"
	best, hasBest := bestOf(s.Study)
	bestNumber := -1
	if hasBest {
		bestNumber = best.Number
	}
	other, pruned, top := pickCurves(cs, bestNumber)
	line := func(c analysis.Curve) (*plotter.Line, plotter.XY, error) {
		xy := make(plotter.XYs, len(c.Steps))
		for i := range c.Steps {
			xy[i] = plotter.XY{X: float64(c.Steps[i]), Y: c.Values[i]}
		}
		xy = finite(xy)
		if len(xy) == 0 {
			return nil, plotter.XY{}, nil
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, plotter.XY{}, err
		}
		l.Width = vg.Points(0.7)
		return l, xy[len(xy)-1], nil
	}
	var ends plotter.XYs
	for _, g := range []struct {
		idx   []int
		c     color.Color
		label string
	}{
		{other, color.NRGBA{R: blue.R, G: blue.G, B: blue.B, A: 110}, "not pruned"},
		{pruned, orange, "pruned"},
		{top, red, ""},
	} {
		for i, k := range g.idx {
			l, end, err := line(cs[k])
			if err != nil {
				return err
			}
			if l == nil {
				continue
			}
			l.Color = g.c
			switch {
			case g.label == "":
				l.Width = vg.Points(1.5)
				p.Legend.Add(fmt.Sprintf("best trial %d", cs[k].Number), l)
			case i == 0:
				p.Legend.Add(g.label, l)
			}
			if cs[k].State == study.Pruned {
				ends = append(ends, end)
			}
			p.Add(l)
		}
	}
	if err := scatter(p, ends, orange, draw.CrossGlyph{}, ""); err != nil {
		return err
	}
	p.Legend.Top = true
	return p.Save(width, height, file)
}

// pickCurves returns the indices of the curves to draw (the rule of
// curvesPlot): the others, the PRUNED ones and the best trial's (bestNumber,
// or −1 for none).
func pickCurves(cs []analysis.Curve, bestNumber int) (other, pruned, top []int) {
	for k, c := range cs {
		switch {
		case c.Number == bestNumber:
			top = append(top, k)
		case c.State == study.Pruned:
			pruned = append(pruned, k)
		default:
			other = append(other, k)
		}
	}
	if n := len(pruned) + len(other); n > maxCurves {
		q := maxCurves * len(pruned) / n
		if len(pruned) > 0 {
			q = max(q, min(len(pruned), maxCurves/4))
		}
		q = max(q, maxCurves-len(other))
		pruned, other = spread(pruned, q), spread(other, maxCurves-q)
	}
	return other, pruned, top
}

// spread keeps n of idx, evenly spread, in order.
func spread(idx []int, n int) []int {
	if n >= len(idx) {
		return idx
	}
	out := make([]int, 0, n)
	for k := range n {
		out = append(out, idx[k*len(idx)/n])
	}
	return out
}

// axisFor sets a plot axis for a parameter: a log scale, or the choices of
// a categorical one.
func axisFor(p *plot.Plot, a *plot.Axis, prm space.Param, horizontal bool) {
	a.Label.Text = prm.Name
	switch {
	case prm.Kind == space.Categorical || prm.Kind == space.Bool:
		names := prm.Choices
		if prm.Kind == space.Bool {
			names = []string{"false", "true"}
		}
		if horizontal {
			p.NominalX(names...)
		} else {
			p.NominalY(names...)
		}
		a.Min, a.Max = -0.5, float64(len(names))-0.5
	case prm.Log:
		a.Scale = plot.LogScale{}
		a.Tick.Marker = plot.LogTicks{Prec: -1}
	}
}

func slicePlot(s Study, name string, pts []analysis.SlicePoint, file string) error {
	i, _ := s.Space.Index(name)
	prm := s.Space.Param(i)
	p := plot.New()
	p.Title.Text = "slice: " + name
	p.Y.Label.Text = "value"
	axisFor(p, &p.X, prm, true)
	// Categorical points are spread a little sideways so that they do not
	// all fall on one spot; the spread is seeded, so reports are stable.
	rng := rand.New(rand.NewPCG(1, 2))
	var ok, bad plotter.XYs
	for _, pt := range pts {
		x := pt.X
		if pt.Category != "" {
			x += (rng.Float64() - 0.5) * 0.3
		}
		if pt.Feasible != nil && !*pt.Feasible {
			bad = append(bad, plotter.XY{X: x, Y: pt.Value})
		} else {
			ok = append(ok, plotter.XY{X: x, Y: pt.Value})
		}
	}
	maximize := s.Direction == study.Maximize
	if err := scatter(p, thinByY(ok, maximize), blue, draw.CircleGlyph{}, ""); err != nil {
		return err
	}
	label := ""
	if len(bad) > 0 {
		label = "infeasible"
	}
	if err := scatter(p, thinByY(bad, maximize), grey, draw.CrossGlyph{}, label); err != nil {
		return err
	}
	p.Legend.Top = true
	return p.Save(width, height, file)
}

// grid is analysis.Contour as gonum's GridXYZ.
type grid struct{ c analysis.Contour }

func (g grid) Dims() (c, r int)   { return len(g.c.X), len(g.c.Y) }
func (g grid) Z(c, r int) float64 { return g.c.Z[r][c] }
func (g grid) X(c int) float64    { return g.c.X[c] }
func (g grid) Y(r int) float64    { return g.c.Y[r] }

func contourPlot(s Study, px, py string, c analysis.Contour, file string) error {
	ix, _ := s.Space.Index(px)
	iy, _ := s.Space.Index(py)
	p := plot.New()
	axisFor(p, &p.X, s.Space.Param(ix), true)
	axisFor(p, &p.Y, s.Space.Param(iy), false)
	cm := moreland.SmoothBlueRed()
	hm := plotter.NewHeatMap(grid{c}, cm.Palette(64))
	if !(hm.Max > hm.Min) {
		hm.Max = hm.Min + 1 // a flat prediction: one colour, not NaN's
	}
	// A raster has no seams between cells, but gonum places it on linear
	// axes only; a log axis keeps the vector cells.
	hm.Rasterized = !s.Space.Param(ix).Log && !s.Space.Param(iy).Log
	p.Title.Text = fmt.Sprintf("predicted value: blue %.4g to red %.4g", hm.Min, hm.Max)
	p.Add(hm)
	var pts plotter.XYs
	for _, q := range c.Points {
		pts = append(pts, plotter.XY{X: q.X, Y: q.Y})
	}
	pts = thin(pts, func(i int) float64 { return c.Points[i].Value }, s.Direction == study.Maximize)
	if err := scatter(p, pts, color.Black, draw.CircleGlyph{}, "COMPLETE trials"); err != nil {
		return err
	}
	p.Legend.Top = true
	return p.Save(width, height, file)
}
