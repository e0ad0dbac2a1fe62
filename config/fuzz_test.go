package config

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/space"
)

// FuzzParseYAML feeds arbitrary text to the study file parser. It must not
// panic; a file it accepts is a valid study (Validate, the check of the
// HTTP API's JSON, agrees), which reads back the same when written as
// YAML or as JSON, and whose space's assignments go through Canonical,
// Encode and Decode unchanged.
func FuzzParseYAML(f *testing.F) {
	f.Add([]byte(designExample))
	for _, s := range []string{
		"name: a\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"name: a\ntrials: 1e3\nworkers: 2.0\nseed: 7\ntransform: copula\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"name: a\ndirection: maximize\nspace:\n  k: {type: categorical, choices: [1, 2.5, true, x]}\n  n: {type: int, low: -3, high: 1000000, when: {k: [\"2.5\"]}}\n  o: {type: ordinal, values: [1e-3, 1, 1e6], when: {n: [7, 8]}}\n  b: {type: bool, when: {k: [x]}}\n",
		"name: a\nspace:\n  x: {type: int, low: 1, high: 10000000000000, log: true}\n  y: {type: float, low: 2.2250738585072014e-308, high: 1e308, log: true}\n",
		"name: a\nspace: &s\n  x: {type: float, low: 0, high: 1}\nobjective:\n  command: [sh, -c, 'echo {{x}} {x}']\n  env: {A: \"1\", B: x}\n  dir: .\n  logs: logs\n  timeout: 1h30m\n",
		"name: a\nspace:\n  x: {type: float, low: 0, high: 1}\n---\n",
		"name: a\nspace:\n  x: {type: float, low: 0, high: 1}\n---\nname: b\n",
		"name: a\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective: {function: branin}\n",
		"name: svm-digits\ndirection: minimize\nsampelr: auto\ntrials: -5\nworkers: 4\nseed: 1\nspace:\n  C:      {type: float, low: 0, high: 1.0e3, log: true}\n  kernel: {type: categorical, choices: [rbf, poly, linear]}\n  degree: {type: int, low: 2, high: 5, when: {kernal: [poly]}}\nobjective:\n  command: [python3, train.py, --C, \"{C}\", --kernel, \"{kernl}\"]\n  timeout: 10 minutes\n",
		"name: a\npruner: {type: hyperband, reduction_factor: 3, estimator: tse-e, e: 2}\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"name: a\npruner: median\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"name: a\nconstraints: {ram_kb: {max: 256}, acc: {min: 0.8, max: 1}}\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"name: a\nconstraints:\n  ram_kb: {max: 1e3, min: -2.5}\n  ram_kb: {maximum: 1}\nspace:\n  x: {type: float, low: 0, high: 1}\n",
		"a: &a [*a]\n",
		"[1, 2]\n",
		"",
	} {
		f.Add([]byte(s))
	}
	for _, p := range []string{"../examples/quickstart.yaml", "../examples/digits/digits.yaml", "../examples/digits/pruned.yaml"} {
		if data, err := os.ReadFile(filepath.FromSlash(p)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseYAML(data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("ParseYAML accepted what Validate refuses: %v\n%s", err, data)
		}
		y, err := yaml.Marshal(s)
		if err != nil {
			t.Fatalf("yaml.Marshal: %v", err)
		}
		back, err := ParseYAML(y)
		if err != nil {
			t.Fatalf("written as YAML, the study does not read back: %v\n%s\nfrom\n%s", err, y, data)
		}
		sameStudy(t, "YAML", s, back)
		j, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("json.Marshal: %v", err)
		}
		back, err = ParseJSON(j)
		if err != nil {
			t.Fatalf("written as JSON, the study does not read back: %v\n%s\nfrom\n%s", err, j, data)
		}
		sameStudy(t, "JSON", s, back)
		roundTrips(t, s.Space)
	})
}

func sameStudy(t *testing.T, via string, a, b *Study) {
	t.Helper()
	pa, pb := params(a.Space), params(b.Space)
	if !reflect.DeepEqual(pa, pb) {
		t.Fatalf("through %s the space changed:\n%#v\n→\n%#v", via, pa, pb)
	}
	a2, b2 := *a, *b
	a2.Space, b2.Space = nil, nil
	if !reflect.DeepEqual(a2, b2) || !reflect.DeepEqual(a.Objective, b.Objective) {
		t.Fatalf("through %s the study changed:\n%+v %+v\n→\n%+v %+v", via, a2, a.Objective, b2, b.Objective)
	}
}

// params is sp.Params() with an empty when (when: {}) as none, which
// means the same and is not written back.
func params(sp *space.Space) []space.Param {
	ps := sp.Params()
	for i := range ps {
		if len(ps[i].When) == 0 {
			ps[i].When = nil
		}
	}
	return ps
}

// roundTrips checks a few points of sp: the assignment Decode gives is
// valid, Canonical keeps it, and Encode then Decode give it back.
func roundTrips(t *testing.T, sp *space.Space) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 4 {
		a := sp.Decode(sp.Sample(rng))
		c, err := sp.Canonical(a)
		if err != nil {
			t.Fatalf("Canonical(%v): %v", a, err)
		}
		if !reflect.DeepEqual(c, a) {
			t.Fatalf("Canonical(%v) = %v", a, c)
		}
		u, err := sp.Encode(a)
		if err != nil {
			t.Fatalf("Encode(%v): %v", a, err)
		}
		if again := sp.Decode(u); !reflect.DeepEqual(again, a) {
			t.Fatalf("Decode(Encode(%v)) = %v", a, again)
		}
	}
}
