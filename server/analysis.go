package server

import (
	"cmp"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/sampler/nasbowl"
	"github.com/boaopt/boa/study"
)

// Bounds on what one answer carries, so that a 50,000-trial study is
// never sent whole to the browser (docs/dashboard.md).
const (
	maxHistory  = 1000 // history points: analysis.Downsample keeps every change of the best
	maxEDF      = 500  // points of the empirical distribution
	maxLines    = 1000 // parallel-coordinate lines and slice points: the best half, a sample of the rest
	maxCurves   = 100  // learning curves: the bestCurves best and the most recent
	bestCurves  = 25
	maxSteps    = 200 // points per learning curve
	maxSpans    = 500 // timeline spans: the most recent
	defaultGrid = 20  // contour grid per axis
	maxGrid     = 60
)

// analysisKinds are what GET .../analysis?kind= computes; several may be
// asked at once, comma-separated, and share one read of the study.
var analysisKinds = map[string]func(*snapshot, *http.Request) (any, error){
	"summary":    summaryOf,
	"history":    historyOf,
	"importance": importanceOf,
	"parallel":   parallelOf,
	"edf":        edfOf,
	"curves":     curvesOf,
	"timeline":   timelineOf,
	"slice":      sliceOf,
	"contour":    contourOf,
}

// analysis answers {"<kind>": ..., ...} for the kinds asked; a kind that
// cannot be computed (importances with one COMPLETE trial) answers
// {"error": "..."} in its place, and the others are still answered.
func (s *server) analysis(w http.ResponseWriter, r *http.Request) error {
	kinds := strings.Split(r.URL.Query().Get("kind"), ",")
	for _, k := range kinds {
		if analysisKinds[k] == nil {
			return badRequest("kind: %q is not one of summary, history, importance, parallel, edf, curves, timeline, slice, contour (comma-separated)", k)
		}
	}
	sn, err := s.snaps.get(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	out := make(map[string]any, len(kinds))
	for _, k := range kinds {
		v, err := analysisKinds[k](sn, r)
		if err != nil {
			if ae, ok := err.(*apiError); ok && ae.status == http.StatusBadRequest && len(kinds) == 1 {
				return ae
			}
			v = map[string]string{"error": err.Error()}
		}
		out[k] = v
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// num is f for JSON, which has no NaN or infinity: null for those.
func num(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

type paramJSON struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"`
	Choices []string `json:"choices,omitempty"`
}

// summaryOf is the study's summary as GET /api/v1/studies/{name} answers
// it, with what the page needs to lay itself out: the parameters, the
// metric names, and whether the motifs view applies (an architecture
// cell, boa motifs).
func summaryOf(sn *snapshot, _ *http.Request) (any, error) {
	sum := summarise(sn.rec, sn.records())
	var ps []paramJSON
	sp := sn.st.Space()
	for i := range sp.Len() {
		p := sp.Param(i)
		ps = append(ps, paramJSON{Name: p.Name, Kind: p.Kind.String(), Choices: p.Choices})
	}
	metrics := map[string]bool{}
	for _, t := range sn.trials {
		for m := range t.Metrics {
			metrics[m] = true
		}
	}
	names := make([]string, 0, len(metrics))
	for m := range metrics {
		names = append(names, m)
	}
	slices.Sort(names)
	return map[string]any{
		"study": sum, "params": ps, "metrics": names,
		"nas": nasbowl.New().CheckSpace(sp) == nil,
	}, nil
}

type historyJSON struct {
	Number   int      `json:"n"`
	State    string   `json:"s"`
	Value    *float64 `json:"v"`
	Best     *float64 `json:"b"`
	Feasible *bool    `json:"f,omitempty"`
}

func historyOf(sn *snapshot, _ *http.Request) (any, error) {
	return sn.memoize("history", func() any {
		h := analysis.History(sn.an)
		d := analysis.Downsample(h, maxHistory)
		pts := make([]historyJSON, len(d))
		for i, p := range d {
			pts[i] = historyJSON{Number: p.Number, State: p.State.String(), Value: num(p.Value), Best: num(p.Best), Feasible: p.Feasible}
		}
		return map[string]any{"total": len(h), "points": pts}
	}), nil
}

type importanceJSON struct {
	Param string  `json:"param"`
	Share float64 `json:"share"`
}

func importanceOf(sn *snapshot, _ *http.Request) (any, error) {
	type result struct {
		v   []importanceJSON
		err error
	}
	res := sn.memoize("importance", func() any {
		imp, err := analysis.Importances(sn.modelled(), sn.st.Seed())
		out := make([]importanceJSON, len(imp))
		for i, p := range imp {
			out[i] = importanceJSON{p.Param, p.Share}
		}
		return result{out, err}
	}).(result)
	return res.v, res.err
}

// bounded picks at most n of the indices 0..len-1, ranked by value (best
// first, by better): the best n/2 and a seeded sample of the rest, in
// their original order. All of them when there are no more than n.
func bounded(count, n int, better func(i, j int) int, seed uint64) []int {
	idx := make([]int, count)
	for i := range idx {
		idx[i] = i
	}
	if count <= n {
		return idx
	}
	// A total order (ties by index) sorts as a stable sort would, in a
	// third of the time at 50,000 trials (pdqsort, not symMerge).
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(better(a, b), cmp.Compare(a, b)) })
	keep := idx[: n/2 : n/2]
	rest := slices.Clone(idx[n/2:])
	rng := rand.New(rand.NewPCG(seed, 0xda5b0a4d))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	keep = append(keep, rest[:n-n/2]...)
	slices.Sort(keep)
	return keep
}

// byValue orders values best first in dir, NaN last.
func byValue(dir study.Direction, value func(int) float64) func(i, j int) int {
	return func(i, j int) int {
		a, b := value(i), value(j)
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			return cmp.Compare(boolInt(math.IsNaN(a)), boolInt(math.IsNaN(b)))
		case dir == study.Maximize:
			return cmp.Compare(b, a)
		}
		return cmp.Compare(a, b)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

type axisJSON struct {
	Param      string   `json:"param"`
	Categories []string `json:"categories,omitempty"`
	Low        float64  `json:"low"`
	High       float64  `json:"high"`
	Log        bool     `json:"log,omitempty"`
}

type lineJSON struct {
	Number   int        `json:"n"`
	Coords   []*float64 `json:"c"` // null where the parameter is inactive
	Value    float64    `json:"v"`
	Feasible *bool      `json:"f,omitempty"`
}

func parallelOf(sn *snapshot, _ *http.Request) (any, error) {
	return sn.memoize("parallel", func() any {
		axes, lines := analysis.Parallel(sn.an)
		keep := bounded(len(lines), maxLines, byValue(sn.an.Direction, func(i int) float64 { return lines[i].Value }), sn.st.Seed())
		out := map[string]any{"total": len(lines)}
		aj := make([]axisJSON, len(axes))
		for i, a := range axes {
			aj[i] = axisJSON{a.Param, a.Categories, a.Low, a.High, a.Log}
		}
		lj := make([]lineJSON, len(keep))
		for k, i := range keep {
			l := lines[i]
			c := make([]*float64, len(l.Coords))
			for j, x := range l.Coords {
				c[j] = num(x)
			}
			lj[k] = lineJSON{l.Number, c, l.Value, l.Feasible}
		}
		out["axes"], out["lines"] = aj, lj
		return out
	}), nil
}

func edfOf(sn *snapshot, _ *http.Request) (any, error) {
	return sn.memoize("edf", func() any {
		vals, shares := analysis.EDF(sn.an)
		n := len(vals)
		if n > maxEDF {
			// Evenly spaced ranks, the first and the last included: the
			// curve's shape at display resolution.
			v2, s2 := make([]float64, maxEDF), make([]float64, maxEDF)
			for k := range maxEDF {
				i := k * (n - 1) / (maxEDF - 1)
				v2[k], s2[k] = vals[i], shares[i]
			}
			vals, shares = v2, s2
		}
		return map[string]any{"total": n, "values": vals, "shares": shares}
	}), nil
}

type curveJSON struct {
	Number int        `json:"n"`
	State  string     `json:"state"`
	Steps  []int64    `json:"steps"`
	Values []*float64 `json:"values"`
}

func curvesOf(sn *snapshot, _ *http.Request) (any, error) {
	return sn.memoize("curves", func() any {
		cs := analysis.Curves(sn.an)
		keep := make([]bool, len(cs))
		// The most recent ones (a live study's), and the best finished.
		for i := max(0, len(cs)-(maxCurves-bestCurves)); i < len(cs); i++ {
			keep[i] = true
		}
		last := func(i int) float64 {
			if v := cs[i].Values; len(v) > 0 && cs[i].State == study.Complete {
				return v[len(v)-1]
			}
			return math.NaN()
		}
		order := make([]int, len(cs))
		for i := range order {
			order[i] = i
		}
		best := byValue(sn.an.Direction, last)
		slices.SortFunc(order, func(a, b int) int { return cmp.Or(best(a, b), cmp.Compare(a, b)) })
		for _, i := range order[:min(bestCurves, len(order))] {
			keep[i] = true
		}
		var out []curveJSON
		for i, c := range cs {
			if !keep[i] {
				continue
			}
			stride := max(1, (len(c.Steps)+maxSteps-1)/maxSteps)
			cj := curveJSON{Number: c.Number, State: c.State.String()}
			for j := 0; j < len(c.Steps); j += stride {
				cj.Steps, cj.Values = append(cj.Steps, c.Steps[j]), append(cj.Values, num(c.Values[j]))
			}
			if n := len(c.Steps); n > 0 && (n-1)%stride != 0 { // the last report always
				cj.Steps, cj.Values = append(cj.Steps, c.Steps[n-1]), append(cj.Values, num(c.Values[n-1]))
			}
			out = append(out, cj)
		}
		return map[string]any{"total": len(cs), "curves": nonNil(out)}
	}), nil
}

type spanJSON struct {
	Number  int        `json:"n"`
	Worker  string     `json:"worker"`
	Start   time.Time  `json:"start"`
	End     *time.Time `json:"end"` // null while it runs
	State   string     `json:"state"`
	RetryOf *int       `json:"retry_of,omitempty"`
	Reason  string     `json:"reason,omitempty"`
}

func timelineOf(sn *snapshot, _ *http.Request) (any, error) {
	return sn.memoize("timeline", func() any {
		spans := analysis.Timeline(sn.an)
		total := len(spans)
		if total > maxSpans {
			spans = spans[total-maxSpans:]
		}
		out := make([]spanJSON, len(spans))
		for i, s := range spans {
			out[i] = spanJSON{Number: s.Number, Worker: s.Worker, Start: s.Start, State: s.State.String(), Reason: firstLine(s.Reason)}
			if !s.End.IsZero() {
				end := s.End
				out[i].End = &end
			}
			if s.RetryOf >= 0 {
				r := s.RetryOf
				out[i].RetryOf = &r
			}
		}
		return map[string]any{"total": total, "spans": out}
	}), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

type sliceJSON struct {
	Number   int      `json:"n"`
	X        *float64 `json:"x,omitempty"`
	Category *string  `json:"cat,omitempty"`
	Value    float64  `json:"v"`
	Feasible *bool    `json:"f,omitempty"`
}

func sliceOf(sn *snapshot, r *http.Request) (any, error) {
	param := r.URL.Query().Get("param")
	if param == "" { // the first parameter: the page's first view
		if sn.an.Space.Len() == 0 {
			return nil, badRequest("the study's space has no parameter to slice along")
		}
		param = sn.an.Space.Param(0).Name
	}
	pts, err := analysis.Slice(sn.an, param)
	if err != nil {
		return nil, badRequest("%v", err)
	}
	keep := bounded(len(pts), maxLines, byValue(sn.an.Direction, func(i int) float64 { return pts[i].Value }), sn.st.Seed())
	out := make([]sliceJSON, len(keep))
	for k, i := range keep {
		p := pts[i]
		out[k] = sliceJSON{Number: p.Number, Value: p.Value, Feasible: p.Feasible}
		if p.Category != "" {
			c := p.Category
			out[k].Category = &c
		} else {
			out[k].X = num(p.X)
		}
	}
	return map[string]any{"param": param, "total": len(pts), "points": out}, nil
}

func contourOf(sn *snapshot, r *http.Request) (any, error) {
	q := r.URL.Query()
	px, py := q.Get("x"), q.Get("y")
	if px == "" && py == "" && sn.an.Space.Len() >= 2 { // the page's first view
		px, py = sn.an.Space.Param(0).Name, sn.an.Space.Param(1).Name
	}
	if px == "" || py == "" {
		return nil, badRequest("kind=contour needs x=PARAM and y=PARAM (a space of at least two parameters)")
	}
	grid := defaultGrid
	if g := q.Get("grid"); g != "" {
		n, err := strconv.Atoi(g)
		if err != nil || n < 2 || n > maxGrid {
			return nil, badRequest("grid: %q is not a whole number from 2 to %d", g, maxGrid)
		}
		grid = n
	}
	key := "contour\x00" + px + "\x00" + py + "\x00" + strconv.Itoa(grid)
	type result struct {
		v   any
		err error
	}
	res := sn.memoize(key, func() any {
		c, err := analysis.ContourOf(sn.modelled(), px, py, grid, sn.st.Seed())
		if err != nil {
			return result{nil, err}
		}
		z := make([][]*float64, len(c.Z))
		for j, row := range c.Z {
			z[j] = make([]*float64, len(row))
			for i, v := range row {
				z[j][i] = num(v)
			}
		}
		pts := c.Points
		keep := bounded(len(pts), maxLines, byValue(sn.an.Direction, func(i int) float64 { return pts[i].Value }), sn.st.Seed())
		type pointJSON struct {
			Number int     `json:"n"`
			X      float64 `json:"x"`
			Y      float64 `json:"y"`
			Value  float64 `json:"v"`
		}
		pj := make([]pointJSON, len(keep))
		for k, i := range keep {
			pj[k] = pointJSON{pts[i].Number, pts[i].X, pts[i].Y, pts[i].Value}
		}
		return result{map[string]any{"x": px, "y": py, "xs": c.X, "ys": c.Y, "x_labels": c.XLabels, "y_labels": c.YLabels, "z": z, "points": pj}, nil}
	}).(result)
	if res.err != nil {
		return nil, badRequest("%v", res.err)
	}
	return res.v, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
