package report

import (
	"fmt"
	"image/color"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/study"
)

// bars is a plotter of horizontal bars, one per trial, drawn in a single
// plotter so that a study of 50,000 trials is one plot element, not 50,000.
type bars struct {
	rows       []float64 // the row (worker) of each bar
	start, end []float64
	colors     []color.Color
}

// Plot implements plot.Plotter.
func (b *bars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range b.rows {
		x0, x1 := trX(b.start[i]), trX(b.end[i])
		if x1-x0 < 0.5 {
			x1 = x0 + 0.5 // a trial shorter than a pixel stays visible
		}
		y0, y1 := trY(b.rows[i]-0.35), trY(b.rows[i]+0.35)
		c.FillPolygon(b.colors[i], c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
	}
}

// DataRange implements plot.DataRanger.
func (b *bars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = slices.Min(b.start), slices.Max(b.end)
	ymin, ymax = slices.Min(b.rows)-0.5, slices.Max(b.rows)+0.5
	return
}

// swatch is a legend entry: a filled square of one colour.
type swatch struct{ c color.Color }

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(s.c, []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}

func stateColor(s study.State) color.Color {
	switch s {
	case study.Complete:
		return blue
	case study.Pruned:
		return orange
	case study.Failed:
		return red
	case study.Running:
		return green
	}
	return grey
}

// timelinePlot draws each trial from its start to its end (to the latest
// time seen while it runs), one row per worker in order of first start.
func timelinePlot(spans []analysis.Span, file string) error {
	t0, t1 := spans[0].Start, spans[0].Start
	for _, s := range spans {
		if s.Start.Before(t0) {
			t0 = s.Start
		}
		t1 = later(t1, later(s.Start, s.End))
	}
	total := t1.Sub(t0)
	unit, name := time.Second, "seconds"
	switch {
	case total > 3*time.Hour:
		unit, name = time.Hour, "hours"
	case total > 3*time.Minute:
		unit, name = time.Minute, "minutes"
	}
	// Rows: one per worker, in order of first start, and within a worker
	// one lane per trial running at once (boa run --workers K runs K trials
	// under one name), each trial in the first lane free when it starts.
	byStart := slices.Clone(spans)
	slices.SortStableFunc(byStart, func(a, b analysis.Span) int { return a.Start.Compare(b.Start) })
	type lanes struct {
		first int         // the worker's first row
		free  []time.Time // when each lane is free again
	}
	ws := map[string]*lanes{}
	var order []string
	laneOf := make(map[int]int, len(spans)) // by trial number
	for _, s := range byStart {
		w := workerName(s)
		l := ws[w]
		if l == nil {
			l = &lanes{}
			ws[w] = l
			order = append(order, w)
		}
		end := s.End
		if end.IsZero() {
			end = t1
		}
		k := slices.IndexFunc(l.free, func(f time.Time) bool { return !f.After(s.Start) })
		if k < 0 {
			k = len(l.free)
			l.free = append(l.free, end)
		} else {
			l.free[k] = end
		}
		laneOf[s.Number] = k
	}
	var labels []string
	for _, w := range order {
		ws[w].first = len(labels)
		for k := range ws[w].free {
			if k == 0 {
				labels = append(labels, w)
			} else {
				labels = append(labels, fmt.Sprintf("%s (%d)", w, k+1))
			}
		}
	}
	b := &bars{}
	seen := map[study.State]bool{}
	for _, s := range spans {
		end := s.End
		if end.IsZero() {
			end = t1
		}
		b.rows = append(b.rows, float64(ws[workerName(s)].first+laneOf[s.Number]))
		b.start = append(b.start, float64(s.Start.Sub(t0))/float64(unit))
		b.end = append(b.end, float64(end.Sub(t0))/float64(unit))
		b.colors = append(b.colors, stateColor(s.State))
		seen[s.State] = true
	}
	p := plot.New()
	p.Title.Text = "timeline by worker"
	p.X.Label.Text = name + " since the first trial started"
	p.Add(b, plotter.NewGrid())
	p.NominalY(labels...)
	for _, st := range []study.State{study.Complete, study.Pruned, study.Failed, study.Running, study.Waiting} {
		if seen[st] {
			p.Legend.Add(st.String(), swatch{stateColor(st)})
		}
	}
	p.Legend.Top = true
	h := height
	if len(labels) > 12 {
		h = vg.Length(float64(height) * float64(len(labels)) / 12)
	}
	return p.Save(width, h, file)
}

func workerName(s analysis.Span) string {
	if s.Worker == "" {
		return "(unknown)"
	}
	return s.Worker
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
