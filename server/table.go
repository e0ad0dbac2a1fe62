package server

import (
	"cmp"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/export"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// DefaultPageSize and MaxPageSize bound a page of the trial table.
const (
	DefaultPageSize = 50
	MaxPageSize     = 1000
)

// filter is the trial table's selection, from the query:
//
//	state=COMPLETE,PRUNED   these states only
//	feasible=true|false     COMPLETE trials the constraints judged so
//	min=V, max=V            value in [V, V'] (trials without a value drop out)
//	where=NAME:LO:HI        a numeric parameter in [LO, HI] (either end may be empty); repeatable
//	q=TEXT                  TEXT (case-insensitive) in the number, state, a parameter's value, the worker or the reason
type filter struct {
	states   map[study.State]bool
	feasible *bool
	min, max float64
	where    []paramRange
	text     string
}

type paramRange struct {
	name     string
	low, hig float64
}

func parseFilter(q url.Values, sp *space.Space) (filter, error) {
	f := filter{min: math.Inf(-1), max: math.Inf(1), text: strings.ToLower(strings.TrimSpace(q.Get("q")))}
	if v := q.Get("state"); v != "" {
		f.states = map[study.State]bool{}
		for _, name := range strings.Split(v, ",") {
			st, err := storage.ParseState(name)
			if err != nil {
				return f, badRequest("state: %v", err)
			}
			f.states[st] = true
		}
	}
	if v := q.Get("feasible"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return f, badRequest("feasible: %q is not true or false", v)
		}
		f.feasible = &b
	}
	bound := func(key string, def float64) (float64, error) {
		v := q.Get(key)
		if v == "" {
			return def, nil
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) {
			return 0, badRequest("%s: %q is not a number", key, v)
		}
		return x, nil
	}
	var err error
	if f.min, err = bound("min", f.min); err != nil {
		return f, err
	}
	if f.max, err = bound("max", f.max); err != nil {
		return f, err
	}
	for _, w := range q["where"] {
		parts := strings.Split(w, ":")
		if len(parts) != 3 {
			return f, badRequest("where: %q is not NAME:LOW:HIGH", w)
		}
		if _, ok := sp.Index(parts[0]); !ok {
			return f, badRequest("where: the study has no parameter %q", parts[0])
		}
		pr := paramRange{name: parts[0], low: math.Inf(-1), hig: math.Inf(1)}
		for i, p := range []*float64{&pr.low, &pr.hig} {
			if s := parts[1+i]; s != "" {
				x, err := strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(x) {
					return f, badRequest("where: %q in %q is not a number", s, w)
				}
				*p = x
			}
		}
		f.where = append(f.where, pr)
	}
	return f, nil
}

func (f filter) keep(t *study.Trial) bool {
	if f.states != nil && !f.states[t.State] {
		return false
	}
	if f.feasible != nil && (t.State != study.Complete || t.Feasible == nil || *t.Feasible != *f.feasible) {
		return false
	}
	if !math.IsInf(f.min, -1) || !math.IsInf(f.max, 1) {
		if !hasValue(t) || t.Value < f.min || t.Value > f.max {
			return false
		}
	}
	for _, w := range f.where {
		x, ok := numeric(t.Params[w.name])
		if !ok || x < w.low || x > w.hig {
			return false
		}
	}
	if f.text != "" && !strings.Contains(trialText(t), f.text) {
		return false
	}
	return true
}

func hasValue(t *study.Trial) bool { return t.State == study.Complete || t.State == study.Pruned }

func numeric(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case bool:
		return float64(boolInt(x)), true
	}
	return 0, false
}

// trialText is what q= searches, lower-cased.
func trialText(t *study.Trial) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(t.Number))
	b.WriteByte(' ')
	b.WriteString(t.State.String())
	for k, v := range t.Params {
		b.WriteByte(' ')
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(space.Format(v))
	}
	b.WriteByte(' ')
	b.WriteString(t.Worker)
	b.WriteByte(' ')
	b.WriteString(t.Reason)
	return strings.ToLower(b.String())
}

// sortKey orders the table: number (default), value, state, worker,
// started, param:NAME or metric:NAME; a leading - reverses. Trials
// without the key go last either way.
func sortTrials(trials []study.Trial, key string) error {
	desc := strings.HasPrefix(key, "-")
	key = strings.TrimPrefix(key, "-")
	type get func(*study.Trial) (float64, string, bool)
	var g get
	switch {
	case key == "" || key == "number":
		g = func(t *study.Trial) (float64, string, bool) { return float64(t.Number), "", true }
	case key == "value":
		g = func(t *study.Trial) (float64, string, bool) { return t.Value, "", hasValue(t) }
	case key == "state":
		g = func(t *study.Trial) (float64, string, bool) { return 0, t.State.String(), true }
	case key == "worker":
		g = func(t *study.Trial) (float64, string, bool) { return 0, t.Worker, true }
	case key == "started":
		g = func(t *study.Trial) (float64, string, bool) {
			return float64(t.Started.UnixMicro()), "", !t.Started.IsZero()
		}
	case strings.HasPrefix(key, "param:"):
		name := key[len("param:"):]
		g = func(t *study.Trial) (float64, string, bool) {
			v, ok := t.Params[name]
			if x, isNum := numeric(v); isNum {
				return x, "", true
			}
			return 0, space.Format(v), ok
		}
	case strings.HasPrefix(key, "metric:"):
		name := key[len("metric:"):]
		g = func(t *study.Trial) (float64, string, bool) { v, ok := t.Metrics[name]; return v, "", ok }
	default:
		return badRequest("sort: %q is not number, value, state, worker, started, param:NAME or metric:NAME (- in front reverses)", key)
	}
	slices.SortFunc(trials, func(a, b study.Trial) int { // total: ties by number
		xa, sa, oka := g(&a)
		xb, sb, okb := g(&b)
		if oka != okb {
			return cmp.Compare(boolInt(!oka), boolInt(!okb))
		}
		c := cmp.Or(cmp.Compare(xa, xb), strings.Compare(sa, sb))
		if desc {
			c = -c
		}
		return cmp.Or(c, cmp.Compare(a.Number, b.Number))
	})
	return nil
}

// selectTrials applies the query's filter and sort to a copy of the
// snapshot's trials.
func selectTrials(sn *snapshot, q url.Values) ([]study.Trial, error) {
	f, err := parseFilter(q, sn.st.Space())
	if err != nil {
		return nil, err
	}
	var out []study.Trial
	for i := range sn.trials {
		if f.keep(&sn.trials[i]) {
			out = append(out, sn.trials[i])
		}
	}
	return out, sortTrials(out, q.Get("sort"))
}

// table answers one page of the study's trials, filtered and sorted on
// the server (a 50,000-trial study is never sent whole):
// {"total", "matched", "page", "size", "trials": [...]}, each trial in the
// form of GET .../trials but without its reports.
func (s *server) table(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	page, size := 0, DefaultPageSize
	for key, p := range map[string]*int{"page": &page, "size": &size} {
		if v := q.Get(key); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || (key == "size" && (n < 1 || n > MaxPageSize)) {
				return badRequest("%s: %q is not a whole number (page ≥ 0, 1 ≤ size ≤ %d)", key, v, MaxPageSize)
			}
			*p = n
		}
	}
	sn, err := s.snaps.get(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	sel, err := selectTrials(sn, q)
	if err != nil {
		return err
	}
	lo := min(page*size, len(sel))
	hi := min(lo+size, len(sel))
	rows := make([]export.Trial, 0, hi-lo)
	for _, t := range sel[lo:hi] {
		t.Reports = nil
		rows = append(rows, export.TrialOf(sn.st.Space(), t))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total": len(sn.trials), "matched": len(sel), "page": page, "size": size, "trials": rows})
	return nil
}

// export answers the filtered, sorted trials as boa export writes them:
// ?format=csv (default) or json, as a download.
func (s *server) export(w http.ResponseWriter, r *http.Request) error {
	format := cmp.Or(r.URL.Query().Get("format"), "csv")
	if format != "csv" && format != "json" {
		return badRequest("format: %q is not csv or json", format)
	}
	sn, err := s.snaps.get(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	sel, err := selectTrials(sn, r.URL.Query())
	if err != nil {
		return err
	}
	name := strings.Map(func(c rune) rune {
		if c == '"' || c == '\\' || c < ' ' {
			return '_'
		}
		return c
	}, sn.rec.Name)
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.`+format+`"`)
	if format == "json" {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		return export.JSON(w, sn.st.Space(), sel)
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	return export.CSV(w, sn.st.Space(), sn.st.ObjectiveNames(), sel)
}
