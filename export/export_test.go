package export

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// TestCSVHeadersAreUnique: parameters named like the system columns
// (batch, value, ...) or like a metric column get a param: prefix, so that
// no two columns share a header and each value is under its own; a space
// without such names keeps the bare parameter names.
func TestCSVHeadersAreUnique(t *testing.T) {
	sp, err := space.New(
		space.Param{Name: "batch", Kind: space.Int, Low: 1, High: 4},
		space.Param{Name: "origin", Kind: space.Bool},
		space.Param{Name: "feasible", Kind: space.Bool},
		space.Param{Name: "value", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "metric:acc", Kind: space.Bool},
		space.Param{Name: "param:lr", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "Number", Kind: space.Int, Low: 0, High: 9},
	)
	if err != nil {
		t.Fatal(err)
	}
	no := false
	trials := []study.Trial{{
		Number: 0, State: study.Complete, Value: 0.5, Batch: 7, Origin: sampler.OriginModel, Feasible: &no, Reason: "infeasible: acc = 0.75, want >= 0.8",
		Params:  space.Assignment{"batch": int64(3), "origin": true, "feasible": true, "value": 0.25, "metric:acc": true, "param:lr": 0.125, "lr": 0.0625, "Number": int64(9)},
		Metrics: map[string]float64{"acc": 0.75},
	}, {
		Number: 1, State: study.Failed, Reason: "exit code 3\nmore", Batch: 8,
		Params: space.Assignment{"batch": int64(1), "origin": false, "feasible": false, "value": 0.5, "metric:acc": false, "param:lr": 1.0, "lr": 0.0, "Number": int64(0)},
	}}
	var buf bytes.Buffer
	if err := CSV(&buf, sp, []string{"value"}, trials); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	head := rows[0]
	want := "number,state,value,param:batch,param:origin,param:feasible,param:value,param:metric:acc,param:param:lr,lr,Number,metric:acc,reason,batch,origin,feasible"
	if got := strings.Join(head, ","); got != want {
		t.Fatalf("header\n%s\nwant\n%s", got, want)
	}
	for i, h := range head {
		if slices.Index(head, h) != i {
			t.Fatalf("header %q appears twice in %v", h, head)
		}
	}
	get := func(row []string, col string) string { return row[slices.Index(head, col)] }
	for col, want := range map[string]string{
		"number": "0", "value": "0.5", "param:batch": "3", "param:value": "0.25", "param:metric:acc": "true",
		"param:param:lr": "0.125", "lr": "0.0625", "Number": "9", "metric:acc": "0.75", "batch": "7", "reason": "infeasible: acc = 0.75, want >= 0.8",
		"param:origin": "true", "origin": "model", "param:feasible": "true", "feasible": "false",
	} {
		if got := get(rows[1], col); got != want {
			t.Errorf("row 0, column %s: %q, want %q", col, got, want)
		}
	}
	if got := get(rows[2], "reason"); got != "exit code 3" {
		t.Errorf("row 1, reason %q, want the first line of the reason", got)
	}
	if got := get(rows[2], "feasible"); got != "" {
		t.Errorf("row 1, feasible %q, want empty: a FAILED trial is not judged", got)
	}
	if got := get(rows[2], "metric:acc"); got != "" {
		t.Errorf("row 1, metric:acc %q, want empty", got)
	}

	// Without clashes a parameter keeps its bare name.
	plain, err := space.New(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "batch_size", Kind: space.Int, Low: 1, High: 4})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	if err := CSV(&buf, plain, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != "number,state,value,x,batch_size,reason,batch,origin,feasible" {
		t.Errorf("header without clashes: %s", got)
	}
}

// TestFloatsStayFloats: a Float parameter at a whole value (a bound, which
// the GP proposes often) is exported as 1.0 in CSV and JSON, so that a
// script reading the export gets a float; an integer ordinal keeps its
// digits, an Int is an integer.
func TestFloatsStayFloats(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "frac", Kind: space.Float, Low: 0.5, High: 1},
		space.Param{Name: "steps", Kind: space.Ordinal, Values: []float64{1000, 1e6}},
		space.Param{Name: "n", Kind: space.Int, Low: 1, High: 9},
	)
	trials := []study.Trial{{Number: 0, State: study.Complete, Value: 2, Params: space.Assignment{"frac": 1.0, "steps": 1e6, "n": 3}}}
	var buf bytes.Buffer
	if err := CSV(&buf, sp, []string{"value"}, trials); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(rows[1][3:6], ","), "1.0,1000000,3"; got != want {
		t.Errorf("CSV row %v: params %s, want %s", rows[1], got, want)
	}
	buf.Reset()
	if err := JSON(&buf, sp, trials); err != nil {
		t.Fatal(err)
	}
	if want := `"params": {
      "frac": 1.0,
      "n": 3,
      "steps": 1000000
    }`; !strings.Contains(buf.String(), want) {
		t.Errorf("JSON export:\n%s\nwant it to hold\n%s", buf.String(), want)
	}
	if _, ok := trials[0].Params["frac"].(float64); !ok {
		t.Errorf("the export changed the trial's params: %#v", trials[0].Params)
	}
}

// TestCSVObjectives: a multi-objective study has one column per
// objective, named by it, in place of value; a parameter named like an
// objective gets the param: prefix, and a PRUNED trial, whose last value
// is of one objective, leaves them empty.
func TestCSVObjectives(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "latency", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1})
	trials := []study.Trial{
		{Number: 0, State: study.Complete, Value: 0.9, Values: []float64{0.9, 3.5}, Params: space.Assignment{"latency": 0.5, "lr": 0.25}},
		{Number: 1, State: study.Pruned, Value: 0.4, Params: space.Assignment{"latency": 0.5, "lr": 0.5}},
	}
	var buf bytes.Buffer
	if err := CSV(&buf, sp, []string{"accuracy", "latency"}, trials); err != nil {
		t.Fatal(err)
	}
	want := "number,state,accuracy,latency,param:latency,lr,reason,batch,origin,feasible\n" +
		"0,COMPLETE,0.9,3.5,0.5,0.25,,,,\n" +
		"1,PRUNED,,,0.5,0.5,,,,\n"
	if got := buf.String(); got != want {
		t.Errorf("CSV\n%s\nwant\n%s", got, want)
	}
}
