package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLoadPoints(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		body string
		want []map[string]any
		err  string
	}{
		{body: "- {x: 0.5, k: rbf}\n- x: 1\n  k: poly\n", want: []map[string]any{{"x": 0.5, "k": "rbf"}, {"x": 1, "k": "poly"}}},
		{body: `[{"x": 0.5, "flag": true}]`, want: []map[string]any{{"x": 0.5, "flag": true}}},
		{body: "", err: "empty: want a list of configurations"},
		{body: "x: 0.5\n", err: "line 1: want a list of configurations"},
		{body: "[]", err: "line 1: the list is empty"},
		{body: "- {x: 1}\n- 0.5\n", err: "line 2: configuration 2: want a mapping"},
		{body: "- {x: 1}\n---\n- {x: 2}\n", err: "line 3: a second YAML document"},
		{body: "- {x: [1\n", err: "line"},
	} {
		p := filepath.Join(dir, "points.yaml")
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := LoadPoints(p)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), p+": ")):
			t.Errorf("%q: error %v, want one starting with the path and mentioning %q", c.body, err, c.err)
		case c.err == "" && (err != nil || !reflect.DeepEqual(got, c.want)):
			t.Errorf("%q: %v, %v; want %v", c.body, got, err, c.want)
		}
	}
}
