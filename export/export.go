package export

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/api"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Trial is the exported form of a trial: the HTTP API's (package api),
// with the parameters as the study decodes them, each number written by
// its parameter's kind (space.Space.Export: a Float at 1 as 1.0) when
// encoded to JSON.
type Trial = api.Trial[space.Assignment]

// TrialOf is t, a trial of a study whose space is sp, in its exported
// form.
func TrialOf(sp *space.Space, t study.Trial) Trial {
	j := Trial{ID: t.ID, Number: t.Number, State: t.State.String(), Params: sp.Export(t.Params), Values: t.Values, Metrics: t.Metrics,
		Reports: make([]api.Report, len(t.Reports)), Reason: t.Reason, Feasible: t.Feasible, Worker: t.Worker, Started: api.Time(t.Started),
		Finished: api.Time(t.Finished), RetryOf: api.RetryOf(t.RetryOf), Batch: api.Batch(t.Batch), Origin: string(t.Origin)}
	if t.State == study.Complete || t.State == study.Pruned {
		v := t.Value
		j.Value = &v
	}
	for i, r := range t.Reports {
		j.Reports[i] = api.Report(r)
	}
	if j.Metrics == nil {
		j.Metrics = map[string]float64{}
	}
	return j
}

// JSON writes trials of a study whose space is sp as one indented JSON
// array, in their exported form (TrialOf).
func JSON(w io.Writer, sp *space.Space, trials []study.Trial) error {
	out := make([]Trial, len(trials))
	for i, t := range trials {
		out[i] = TrialOf(sp, t)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// csvSystemColumns are the CSV columns that are not a parameter or a
// metric.
var csvSystemColumns = []string{"number", "state", "value", "reason", "batch", "origin", "feasible"}

// csvParamColumn is the CSV header of parameter name: the name itself,
// or param:NAME when the name would be taken for another column (a
// system column such as batch or value) or could be mistaken for a
// prefixed one (it starts with metric: or param:). Every header is then
// unique: metric columns are metric:NAME, and a bare name is always a
// parameter.
func csvParamColumn(name string) string {
	if slices.Contains(csvSystemColumns, name) || strings.HasPrefix(name, "metric:") || strings.HasPrefix(name, "param:") {
		return "param:" + name
	}
	return name
}

// CSV writes one row per trial: number, state, value, one column per
// parameter (empty when inactive; csvParamColumn names it), the metrics
// named in any trial, the reason a trial failed (or is infeasible), its
// batch (empty when none), its origin and whether it met the study's
// constraints (true or false; empty when not judged: a study without
// constraints, a trial that did not complete). New columns go last, so
// that scripts reading columns by position keep working. A study of
// several objectives, named objectives, has one column per objective,
// named by it, in place of value.
func CSV(w io.Writer, sp *space.Space, objectives []string, trials []study.Trial) error {
	var metrics []string
	seen := map[string]bool{}
	for _, t := range trials {
		for k := range t.Metrics {
			if !seen[k] {
				seen[k] = true
				metrics = append(metrics, k)
			}
		}
	}
	cw := csv.NewWriter(w)
	values := []string{"value"}
	if len(objectives) > 1 {
		values = objectives
	}
	head := append([]string{"number", "state"}, values...)
	for _, name := range sp.Names() {
		col := csvParamColumn(name)
		if col == name && slices.Contains(values, name) {
			col = "param:" + name
		}
		head = append(head, col)
	}
	for _, m := range metrics {
		head = append(head, "metric:"+m)
	}
	head = append(head, "reason", "batch", "origin", "feasible")
	_ = cw.Write(head)
	for _, t := range trials {
		row := []string{strconv.Itoa(t.Number), t.State.String()}
		switch {
		case len(values) > 1 && len(t.Values) == len(values):
			for _, v := range t.Values {
				row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
			}
		case len(values) > 1:
			// A PRUNED trial's last value is of one objective only.
			row = append(row, make([]string, len(values))...)
		case t.State == study.Complete || t.State == study.Pruned:
			row = append(row, strconv.FormatFloat(t.Value, 'g', -1, 64))
		default:
			row = append(row, "")
		}
		for _, name := range sp.Names() {
			if v, ok := t.Params[name]; ok {
				row = append(row, sp.Text(name, v)) // as the command got it: 1.0 for a Float
			} else {
				row = append(row, "")
			}
		}
		for _, m := range metrics {
			if v, ok := t.Metrics[m]; ok {
				row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
			} else {
				row = append(row, "")
			}
		}
		batch := ""
		if t.Batch > 0 {
			batch = strconv.Itoa(t.Batch)
		}
		feasible := ""
		if t.Feasible != nil {
			feasible = strconv.FormatBool(*t.Feasible)
		}
		row = append(row, firstLine(t.Reason), batch, string(t.Origin), feasible)
		_ = cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// firstLine is the first line of a failure's reason: a CSV row stays one
// line in a spreadsheet.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
