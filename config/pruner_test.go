package config

import (
	"encoding/json"
	"strings"
	"testing"
)

const prunerSpace = "space:\n  x: {type: float, low: 0, high: 1}\n"

// The pruner field: a name or a mapping, from YAML and JSON alike.
func TestPruner(t *testing.T) {
	for _, tc := range []struct{ yaml, json, want string }{
		{"pruner: median\n", `"pruner":"median"`, `{"type":"median"}`},
		{"pruner: {type: successive_halving, reduction_factor: 3, min_resource: 2}\n",
			`"pruner":{"type":"successive_halving","reduction_factor":3,"min_resource":2}`,
			`{"type":"successive_halving","min_resource":2,"reduction_factor":3}`},
		{"pruner:\n  type: percentile\n  percentile: 25\n  n_warmup_steps: 5\n",
			`"pruner":{"type":"percentile","percentile":25,"n_warmup_steps":5}`,
			`{"type":"percentile","percentile":25,"n_warmup_steps":5}`},
		{"pruner: {type: median, estimator: tse-ema, gamma: 0.99}\n",
			`"pruner":{"type":"median","estimator":"tse-ema","gamma":0.99}`,
			`{"type":"median","estimator":"tse-ema","gamma":0.99}`},
	} {
		y, err := ParseYAML([]byte("name: a\n" + tc.yaml + prunerSpace))
		if err != nil {
			t.Errorf("YAML %q: %v", tc.yaml, err)
			continue
		}
		j, err := ParseJSON([]byte(`{"name":"a",` + tc.json + `,"space":{"x":{"type":"float","low":0,"high":1}}}`))
		if err != nil {
			t.Errorf("JSON %s: %v", tc.json, err)
			continue
		}
		gy, _ := json.Marshal(y.PrunerSpec())
		gj, _ := json.Marshal(j.Pruner)
		if string(gy) != tc.want || string(gj) != tc.want {
			t.Errorf("%q: YAML gives %s, JSON %s; want %s", tc.yaml, gy, gj, tc.want)
		}
	}
	if s, err := ParseYAML([]byte("name: a\n" + prunerSpace)); err != nil || s.Pruner != nil || s.PrunerSpec().Type != "" {
		t.Errorf("no pruner: %+v, %v", s.Pruner, err)
	}
}

// Bad pruners are named with their line and what is wanted.
func TestPrunerErrors(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{"pruner: medain\n", []string{"line 2: pruner", "medain", "median"}},
		{"pruner: [median]\n", []string{"line 2: pruner: want a pruner name"}},
		{"pruner: {type: median, n_startup: 3}\n", []string{"line 2: pruner.n_startup: unknown field", "n_startup_trials"}},
		{"pruner:\n  type: hyperband\n  reduction_factor: two\n", []string{"line 4: pruner.reduction_factor: want an integer"}},
		{"pruner:\n  type: hyperband\n  reduction_factor: 2.5\n", []string{"line 4: pruner.reduction_factor: want an integer"}},
		{"pruner:\n  type: hyperband\n  reduction_factor: 1\n", []string{"line 2: pruner", "reduction_factor"}},
		{"pruner: {type: hyperband, percentile: 30}\n", []string{"line 2: pruner", "percentile"}},
		{"pruner: {type: median, type: percentile}\n", []string{"pruner.type: given twice"}},
	} {
		_, err := ParseYAML([]byte("name: a\n" + tc.doc + prunerSpace))
		if err == nil {
			t.Errorf("%q: no error", tc.doc)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %q does not say %q", tc.doc, err, w)
			}
		}
	}
	for _, doc := range []string{`"pruner":{"type":"median","n_startup":3}`, `"pruner":3`, `"pruner":{"type":"hyperband","reduction_factor":1}`} {
		if _, err := ParseJSON([]byte(`{"name":"a",` + doc + `,"space":{"x":{"type":"float","low":0,"high":1}}}`)); err == nil || !strings.Contains(err.Error(), "pruner") {
			t.Errorf("JSON %s: %v", doc, err)
		}
	}
}
