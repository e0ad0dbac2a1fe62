package server

import (
	"strings"
	"testing"
)

// TestCreateFromYAML: the study file boa run reads is accepted as it is
// with Content-Type application/yaml, ?name= replaces its name, and a
// broken file is refused with its line, as boa run refuses it.
func TestCreateFromYAML(t *testing.T) {
	h := New(storeFor(t), Options{})
	const file = "name: from-yaml\nsampler: random\ntrials: 4\nspace:\n  x: {type: float, low: 0, high: 1}\n  k: {type: categorical, choices: [a, b]}\n"
	if a := call(h, "POST", "/api/v1/studies", file, "Content-Type", "application/yaml"); a.status != 201 || a.json(t)["name"] != "from-yaml" || a.json(t)["budget"] != 4.0 {
		t.Fatalf("create from YAML: %d %s", a.status, a.body)
	}
	if a := call(h, "POST", "/api/v1/studies?name=renamed", file, "Content-Type", "text/yaml; charset=utf-8"); a.status != 201 || a.json(t)["name"] != "renamed" {
		t.Fatalf("create from YAML with ?name=: %d %s", a.status, a.body)
	}
	for _, c := range []struct{ body, query, says string }{
		{"name: bad\nspace:\n  x: {type: float, low: 2, high: 1}\n", "", "line 3"},
		{"name: [unclosed\n", "", "line 1"},
		{file, "?name=" + "a%00b", "name"},
		{file, "", "already exists"},
		{"name: tiny\ndeploy: {board: tiny, network: {input: [4, 4, 1], layers: [{type: dense, units: 2}]}}\nspace:\n  x: {type: float, low: 0, high: 1}\n", "", "deploy: a study with a deploy block runs with boa run"},
	} {
		a := call(h, "POST", "/api/v1/studies"+c.query, c.body, "Content-Type", "application/yaml")
		if a.status/100 != 4 || !strings.Contains(a.errMsg(t), c.says) {
			t.Errorf("%q%s: %d %s, want a 4xx saying %q", c.body, c.query, a.status, a.body, c.says)
		}
	}
	// JSON stays the default: a YAML body without the header is malformed JSON.
	if a := call(h, "POST", "/api/v1/studies", file); a.status != 400 || !strings.Contains(a.errMsg(t), "JSON object") {
		t.Errorf("YAML without its Content-Type: %d %s", a.status, a.body)
	}
}
