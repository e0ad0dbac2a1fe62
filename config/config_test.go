package config

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/config/configtest"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/space"
)

const designExample = `
name: svm-digits
direction: minimize            # or maximize
storage: sqlite:boa.db         # default
sampler: auto
trials: 100
workers: 4
seed: 1
space:
  C:      {type: float, low: 1.0e-3, high: 1.0e3, log: true}
  kernel: {type: categorical, choices: [rbf, poly, linear]}
  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}
  width:  {type: ordinal, values: [16, 32, 64, 128]}
objective:
  command: [python3, train.py, --C, "{C}", --kernel, "{kernel}"]
  timeout: 10m
`

// TestTransform: the study file's transform reaches the Study as written,
// from YAML and from JSON (callers parse it with transform.Parse, as they
// do the direction).
func TestTransform(t *testing.T) {
	y, err := ParseYAML([]byte("name: a\ntransform: log\nspace:\n  x: {type: float, low: 0, high: 1}\n"))
	if err != nil || y.Transform != "log" {
		t.Errorf("YAML: transform %q, %v", y.Transform, err)
	}
	j, err := ParseJSON([]byte(`{"name":"a","transform":"copula","space":{"x":{"type":"float","low":0,"high":1}}}`))
	if err != nil || j.Transform != "copula" {
		t.Errorf("JSON: transform %q, %v", j.Transform, err)
	}
}

func TestParseDesignExample(t *testing.T) {
	s, err := ParseYAML([]byte(designExample))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "svm-digits" || s.Trials != 100 || s.Workers != 4 || s.Seed != 1 || s.StorageURL() != "sqlite:boa.db" {
		t.Errorf("header fields: %+v", s)
	}
	if got := strings.Join(s.Space.Names(), ","); got != "C,kernel,degree,width" {
		t.Errorf("space order %s", got)
	}
	if time.Duration(s.Objective.Timeout) != 10*time.Minute || len(s.Objective.Command) != 6 {
		t.Errorf("objective %+v", s.Objective)
	}
}

func TestDefaults(t *testing.T) {
	s, err := ParseYAML([]byte("name: a\nspace:\n  x: {type: float, low: 0, high: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.StorageURL() != DefaultStorage || s.SamplerName() != "auto" || s.Objective != nil || s.Transform != "" {
		t.Errorf("defaults: storage %s, sampler %s, objective %v", s.StorageURL(), s.SamplerName(), s.Objective)
	}
}

func TestWholeFloatsAreIntegers(t *testing.T) {
	// 1e3 is a whole number written as a float: it is 1000, while 2.5 is
	// an error (TestErrors).
	s, err := ParseYAML([]byte("name: a\ntrials: 1e3\nworkers: 2.0\nseed: 7\nspace:\n  x: {type: float, low: 0, high: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Trials != 1000 || s.Workers != 2 || s.Seed != 7 {
		t.Errorf("trials %d, workers %d, seed %d", s.Trials, s.Workers, s.Seed)
	}
}

func TestEmptyTrailingDocument(t *testing.T) {
	// A trailing --- (an empty document) is harmless; a second study is
	// not (TestErrors).
	if _, err := ParseYAML([]byte("name: a\nspace:\n  x: {type: float, low: 0, high: 1}\n---\n# nothing\n")); err != nil {
		t.Error(err)
	}
}

func TestParseJSONMatchesYAML(t *testing.T) {
	j := `{"name":"svm","direction":"maximize","trials":5,"space":{"C":{"type":"float","low":0.001,"high":1000,"log":true},
	"k":{"type":"categorical","choices":["a","b"]}},"objective":{"command":["x","{C}"],"timeout":"90s"}}`
	s, err := ParseJSON([]byte(j))
	if err != nil {
		t.Fatal(err)
	}
	if s.Direction != "maximize" || time.Duration(s.Objective.Timeout) != 90*time.Second || s.Space.Len() != 2 {
		t.Errorf("parsed %+v", s)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range configtest.BadFiles() {
		t.Run(tc.Name, func(t *testing.T) {
			_, err := ParseYAML([]byte(tc.Doc))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.Want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestJSONErrors(t *testing.T) {
	const sp = `"space":{"x":{"type":"float","low":0,"high":1}}`
	for doc, want := range map[string]string{
		`{"name":"a",` + sp + `,"bogus":1}`: `unknown field "bogus"`,
		`{"name":"a",` + sp + `} trailing`:  "",
		`{"name":"a"}`:                      "",
		`[1,2]`:                             "",
		// Type errors name the field, as the YAML side does.
		`{"name":"a","trials":"x",` + sp + `}`:                            "study: trials: want an integer, got a string",
		`{"name":"a","trials":1.5,` + sp + `}`:                            "study: trials: want an integer, got 1.5",
		`{"name":"a","seed":-1,` + sp + `}`:                               "study: seed: want an integer ≥ 0, got -1",
		`{"name":"a","workers":true,` + sp + `}`:                          "study: workers: want an integer, got a boolean",
		`{"name":"a","objective":{"command":"ls"},` + sp + `}`:            "study: objective.command: want a list, got a string",
		`{"name":"a","constraints":{"ram":{"maximum":3}},` + sp + `}`:     `study: constraints.ram: unknown field "maximum"; a limit has the fields min and max`,
		`{"name":"a","constraints":{"ram":{"max":"3"}},` + sp + `}`:       "study: constraints.ram.max: want a number, got a string",
		`{"name":"a","constraints":{"ram":3},` + sp + `}`:                 `study: constraints.ram: want a limit such as {"max": 256}`,
		`{"name":"a","constraints":[],` + sp + `}`:                        "study: constraints: want an object of limits",
		`{"name":"a","constraints":{},` + sp + `}`:                        "constraints: empty",
		`{"name":"a","constraints":{"ram":{"min":3,"max":1}},` + sp + `}`: "constraints.ram: min 3 is greater than max 1",
	} {
		_, err := ParseJSON([]byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", doc, err, want)
		}
	}
}

// TestConditionalSpaceSamplers: the samplers that take conditional spaces
// accept a file with one (CoCaBO and CASMOPOLITAN are refused in
// TestErrors).
func TestConditionalSpaceSamplers(t *testing.T) {
	for _, name := range []string{"", "auto", "gpbo", "onehot-gp", "random"} {
		doc := "name: a\nsampler: \"" + name + "\"\nspace:\n  kernel: {type: categorical, choices: [rbf, poly]}\n  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}\n"
		if _, err := ParseYAML([]byte(doc)); err != nil {
			t.Errorf("sampler %q: %v", name, err)
		}
	}
}

// TestEveryErrorAtOnce: a file with problems of every kind gets them all
// in one error, in line order, each with its line: an unknown field does
// not hide the others, a bad space does not hide the top-level fields,
// and a command's placeholders are checked even when the space has
// errors of its own.
func TestEveryErrorAtOnce(t *testing.T) {
	doc := `name: a
sampelr: gpbo
direction: up
trials: -3
space:
  C:      {type: float, low: 0, high: 1, log: true}
  kernel: {type: categorical, choices: [rbf, poly]}
  degree: {type: int, low: 2, high: 5, when: {kernal: [poly]}}
objective:
  command: [python3, train.py, "{nope}"]
  timeout: soon
  env: {"A=B": x}
`
	_, err := ParseYAML([]byte(doc))
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		"line 2: sampelr: unknown field",
		`line 3: direction: must be minimize or maximize, got "up"`,
		"line 4: trials: must be 0 (no limit) or more, got -3",
		"space.C (line 6): log scale needs low > 0",
		`space.degree (line 8): condition on unknown parameter "kernal"`,
		`line 10: objective.command: command[2] "{nope}": unknown parameter {nope} (known: C, kernel, degree)`,
		`line 11: objective.timeout: "soon" is not a duration`,
		`line 12: objective.env: variable name "A=B" contains '='`,
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d errors, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d: %q, want it to start with %q", i, lines[i], w)
		}
	}
}

// TestJSONChecksTheObjective: the HTTP API's study (ParseJSON) gets the
// same checks of the objective as a file, without lines.
func TestJSONChecksTheObjective(t *testing.T) {
	_, err := ParseJSON([]byte(`{"name":"a","space":{"x":{"type":"float","low":0,"high":1}},"objective":{"command":["echo","{y}"],"env":{"A=B":"x"}}}`))
	if err == nil || !strings.Contains(err.Error(), "objective.command: command[1] \"{y}\": unknown parameter {y}") ||
		!strings.Contains(err.Error(), `objective.env: variable name "A=B"`) {
		t.Fatalf("err = %v", err)
	}
}

// TestMergeKeys: YAML merge keys ("<<: *anchor", or a list) bring the
// fields of the mappings they name, where they stand; a field written
// beside them wins, and of a list the earlier mapping.
func TestMergeKeys(t *testing.T) {
	s, err := ParseYAML([]byte(`name: a
space:
  lr: &lr {type: float, low: 1e-4, high: 1, log: true}
  lr2: {<<: *lr, high: 0.1}
  n: {<<: [{type: int, low: 0}, {type: float, high: 5}]}
  last: {type: bool}
objective:
  <<: &run {timeout: 1m}
  command: [train, "{lr}"]
`))
	if err != nil {
		t.Fatal(err)
	}
	ps := s.Space.Params()
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	want := []string{"lr", "lr2", "n", "last"}
	if !slices.Equal(names, want) {
		t.Fatalf("parameters %v, want %v (in the file's order)", names, want)
	}
	if p := ps[1]; p.Kind != space.Float || !p.Log || p.Low != 1e-4 || p.High != 0.1 {
		t.Errorf("lr2 = %+v, want lr's fields with high 0.1", p)
	}
	if p := ps[2]; p.Kind != space.Int || p.Low != 0 || p.High != 5 {
		t.Errorf("n = %+v, want int 0..5 (the earlier mapping's type)", p)
	}
	if time.Duration(s.Objective.Timeout) != time.Minute {
		t.Errorf("objective timeout %v, want the merged 1m", s.Objective.Timeout)
	}
	for doc, want := range map[string]string{
		// Not a mapping: nothing to merge, so "<<" stays and is reported.
		"name: a\nspace:\n  x: {<<: 3, type: float, low: 0, high: 1}\n": `unknown field "<<"`,
		// A quoted "<<" is a plain key.
		"name: a\n\"<<\": {trials: 3}\nspace:\n  x: {type: float, low: 0, high: 1}\n": "<<: unknown field",
	} {
		if _, err := ParseYAML([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", doc, err, want)
		}
	}
}

// A group in a command (a list inside the list) is left out as a whole
// where an optional placeholder in it has no value; YAML and JSON read it
// alike, and it is written back as it was given.
func TestCommandGroups(t *testing.T) {
	const doc = `name: svm
space:
  kernel: {type: categorical, choices: [rbf, poly]}
  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}
objective:
  command: [python3, train.py, --kernel, "{kernel}", [--degree, "{degree?}"], "--d={degree?}", [-v]]
`
	s, err := ParseYAML([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := Command{{"python3"}, {"train.py"}, {"--kernel"}, {"{kernel}"}, {"--degree", "{degree?}"}, {"--d={degree?}"}, {"-v"}}
	if !reflect.DeepEqual(s.Objective.Command, want) {
		t.Fatalf("command %q, want %q", s.Objective.Command, want)
	}
	rc := s.Objective.Command.Runner()
	if args := []string{"python3", "train.py", "--kernel", "{kernel}", "--degree", "{degree?}", "--d={degree?}", "-v"}; !reflect.DeepEqual(rc.Args, args) || !reflect.DeepEqual(rc.Groups, []runner.Group{{From: 4, To: 6}}) {
		t.Errorf("Runner() = %q %v", rc.Args, rc.Groups)
	}
	for params, argv := range map[string][]string{
		"rbf":  {"python3", "train.py", "--kernel", "rbf", "-v"},
		"poly": {"python3", "train.py", "--kernel", "poly", "--degree", "3", "--d=3", "-v"},
	} {
		p := map[string]any{"kernel": params}
		if params == "poly" {
			p["degree"] = 3
		}
		if got, err := rc.Argv(p); err != nil || !reflect.DeepEqual(got, argv) {
			t.Errorf("Argv(%v) = %q, %v; want %q", p, got, err, argv)
		}
	}
	js, err := json.Marshal(s.Objective)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"command":["python3","train.py","--kernel","{kernel}",["--degree","{degree?}"],"--d={degree?}","-v"]`) {
		t.Errorf("JSON: %s", js)
	}
	j, err := ParseJSON([]byte(`{"name":"svm","space":{"kernel":{"type":"categorical","choices":["rbf","poly"]},"degree":{"type":"int","low":2,"high":5,"when":{"kernel":["poly"]}}},"objective":` + string(js) + `}`))
	if err != nil || !reflect.DeepEqual(j.Objective.Command, want) {
		t.Errorf("ParseJSON: command %q, %v; want %q", j.Objective.Command, err, want)
	}
	if _, err := ParseJSON([]byte(`{"name":"a","space":{"x":{"type":"float","low":0,"high":1}},"objective":{"command":["echo",[1,["x"]]]}}`)); err == nil || !strings.Contains(err.Error(), "group of arguments") {
		t.Errorf("ParseJSON of a nested group: %v", err)
	}
}

// The README's study file, which passes the conditional degree with a
// group, is valid.
func TestREADMEStudyFile(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Skip(err)
	}
	_, rest, _ := strings.Cut(string(readme), "## Tune your own training command")
	_, rest, _ = strings.Cut(rest, "```yaml\n")
	doc, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatal("no YAML block under \"Tune your own training command\"")
	}
	s, err := ParseYAML([]byte(doc))
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	if rc := s.Objective.Command.Runner(); len(rc.Groups) != 1 || !strings.Contains(strings.Join(rc.Args, " "), "--degree {degree?}") {
		t.Errorf("the README's command %q does not pass degree in a group", rc.Args)
	}
}
