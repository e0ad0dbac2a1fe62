package space

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// studyYAML is the study file of DESIGN.md §2.2.
const studyYAML = `name: svm-digits
direction: minimize            # or maximize
storage: sqlite:boa.db         # default
sampler: auto                  # or gpbo, cocabo, casmopolitan, random, sobol, tpe, ...
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

type study struct {
	Name      string
	Direction string
	Storage   string
	Sampler   string
	Trials    int
	Workers   int
	Seed      int
	Space     *Space
	Objective struct {
		Command []string
		Timeout string
	}
}

func wantStudySpace(t *testing.T, s *Space) {
	t.Helper()
	want := []Param{
		{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
		{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear"}},
		{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		{Name: "width", Kind: Ordinal, Values: []float64{16, 32, 64, 128}},
	}
	if got := s.Params(); !reflect.DeepEqual(got, want) {
		t.Errorf("params\n got %+v\nwant %+v", got, want)
	}
}

func TestYAMLStudyFile(t *testing.T) {
	var st study
	if err := yaml.Unmarshal([]byte(studyYAML), &st); err != nil {
		t.Fatal(err)
	}
	wantStudySpace(t, st.Space)
	// Round trip through MarshalYAML keeps order and meaning.
	out, err := yaml.Marshal(st.Space)
	if err != nil {
		t.Fatal(err)
	}
	var back Space
	if err := yaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("re-reading %s: %v", out, err)
	}
	wantStudySpace(t, &back)
}

func TestJSONStudySpace(t *testing.T) {
	src := `{
  "C": {"type": "float", "low": 0.001, "high": 1000, "log": true},
  "kernel": {"type": "categorical", "choices": ["rbf", "poly", "linear"]},
  "degree": {"type": "int", "low": 2, "high": 5, "when": {"kernel": ["poly"]}},
  "width": {"type": "ordinal", "values": [16, 32, 64, 128]}
}`
	var s Space
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		t.Fatal(err)
	}
	wantStudySpace(t, &s)
	out, err := json.Marshal(&s)
	if err != nil {
		t.Fatal(err)
	}
	var back Space
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("re-reading %s: %v", out, err)
	}
	wantStudySpace(t, &back)
	// YAML and JSON forms agree.
	var st study
	if err := yaml.Unmarshal([]byte(studyYAML), &st); err != nil {
		t.Fatal(err)
	}
	fromYAML, _ := json.Marshal(st.Space)
	if string(fromYAML) != string(out) {
		t.Errorf("JSON of the YAML space\n%s\n!= %s", fromYAML, out)
	}
}

func TestMixedScalarChoices(t *testing.T) {
	src := "space:\n  act: {type: categorical, choices: [16, 32, relu, true, 1.5]}\n" +
		"  on: {type: bool}\n" +
		"  lr: {type: float, low: 0, high: 1, when: {act: [relu, 16], on: [true]}}\n"
	var st struct{ Space *Space }
	if err := yaml.Unmarshal([]byte(src), &st); err != nil {
		t.Fatal(err)
	}
	if got := st.Space.Params()[0].Choices; !reflect.DeepEqual(got, []string{"16", "32", "relu", "true", "1.5"}) {
		t.Errorf("choices %q", got)
	}
	var js Space
	if err := json.Unmarshal([]byte(`{"act": {"type": "categorical", "choices": [16, 32, "relu", true, 1.5]},
		"on": {"type": "bool"}, "lr": {"type": "float", "low": 0, "high": 1, "when": {"act": ["relu", 16], "on": true}}}`), &js); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(js.Params(), st.Space.Params()) {
		t.Errorf("JSON %+v != YAML %+v", js.Params(), st.Space.Params())
	}
	if err := js.Validate(Assignment{"act": 16, "on": true, "lr": 0.5}); err != nil {
		t.Errorf("numeric value of a categorical choice rejected: %v", err)
	}
}

func TestBadYAML(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // phrases, in order of the error text
	}{
		{"log low 0", "space:\n  x: {type: float, low: 0, high: 1}\n  C:\n    type: float\n    low: 0\n    high: 1.0e3\n    log: true\n",
			[]string{"space.C (line 7): log scale needs low > 0, got low = 0"}},
		{"missing type", "space:\n  w: {values: [1, 2]}\n", []string{"space.w (line 2): missing type"}},
		{"unknown type", "space:\n  w: {type: integer, low: 1, high: 2}\n", []string{`space.w (line 2): unknown type "integer"`}},
		{"unknown field", "space:\n  x:\n    type: float\n    low: 0\n    hihg: 1\n", []string{"space.x (line 2): a float parameter needs low and high; high is missing", `space.x (line 5): unknown field "hihg"`}},
		{"field of another kind", "space:\n  k: {type: categorical, choices: [a], low: 0}\n", []string{"space.k (line 2): low is not a field of a categorical parameter"}},
		{"not a number", "space:\n  x: {type: float, low: zero, high: 1}\n", []string{`space.x (line 2): low must be a number, got "zero"`}},
		{"quoted number", "space:\n  x: {type: float, low: \"0\", high: 1}\n", []string{`low must be a number`}},
		{"log not bool", "space:\n  x: {type: float, low: 1, high: 2, log: yes}\n", []string{"log must be true or false"}},
		{"values not list", "space:\n  w: {type: ordinal, values: 16}\n", []string{"values must be a list of numbers"}},
		{"values not numbers", "space:\n  w: {type: ordinal, values: [16, big]}\n", []string{`values[1] must be a number, got "big"`}},
		{"choices nested", "space:\n  k: {type: categorical, choices: [[a]]}\n", []string{"choices[0] must be a single value"}},
		{"choices null", "space:\n  k: {type: categorical, choices: [a, ~]}\n", []string{"choices[1] must be a single value, got nothing"}},
		{"when not mapping", "space:\n  k: {type: bool, when: [a]}\n", []string{"when must be a mapping"}},
		{"duplicate name", "space:\n  k: {type: bool}\n  k: {type: bool}\n", []string{"space.k (line 3): declared twice (lines 2 and 3)"}},
		{"duplicate field", "space:\n  x: {type: float, low: 0, high: 1, low: 2}\n", []string{"field low is given twice"}},
		{"param not mapping", "space:\n  x: float\n", []string{`space.x (line 2): want a mapping such as {type: float, low: 0, high: 1}, got "float"`}},
		{"space not mapping", "space:\n  - x\n", []string{"space (line 2): want a mapping of parameter name"}},
		{"empty space", "space: {}\n", []string{"no parameters"}},
		{"bad condition", "space:\n  k: {type: categorical, choices: [a, b]}\n  n: {type: int, low: 1, high: 2, when: {k: [c]}}\n",
			[]string{`space.n (line 3): condition value "c" is never taken by k, which is one of a, b`}},
		{"cycle", "space:\n  a: {type: bool, when: {b: [true]}}\n  b: {type: bool, when: {a: [true]}}\n", []string{"space.a (line 2): conditions form a cycle: a → b → a"}},
		{"several, in line order", "space:\n  a: {type: float, low: 2, high: 1}\n  b: {type: ordinal, values: [3, 1]}\n  c: {type: what}\n",
			[]string{"space.a (line 2): low must be below high", "space.b (line 3): values must be in increasing order", "space.c (line 4): unknown type"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var st struct{ Space *Space }
			err := yaml.Unmarshal([]byte(tt.src), &st)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			pos := 0
			for _, w := range tt.want {
				i := strings.Index(msg[pos:], w)
				if i < 0 {
					t.Fatalf("error %q does not mention %q (in order)", msg, w)
				}
				pos += i + len(w)
			}
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Line == 0 {
				t.Errorf("error %v carries no line", err)
			}
		})
	}
}

func TestOneErrorPerMistake(t *testing.T) {
	// A declaration or type that cannot be read is reported once: not again
	// as a missing or unknown type, nor its children's conditions as ones
	// on a float parent.
	tests := []struct {
		name, src, want string
		json            bool
	}{
		{"type a list", "space:\n  x: {type: [float], low: 0, high: 1}\n", "space.x (line 2): type must be one of", false},
		{"param a number", "space:\n  x: 3\n", `space.x (line 2): want a mapping such as {type: float, low: 0, high: 1}, got "3"`, false},
		{"parent of unknown type", "space:\n  x: {type: flot}\n  y: {type: bool, when: {x: [a]}}\n", `space.x (line 2): unknown type "flot"`, false},
		{"parent without type", "space:\n  x: {choices: [a]}\n  y: {type: bool, when: {x: [a]}}\n", "space.x (line 2): missing type", false},
		{"JSON param a number", `{"x": 3}`, "space.x (line 1): want an object", true},
		{"JSON type a number", `{"x": {"type": 3}}`, "space.x (line 1): type must be a string", true},
		{"JSON when null", `{"x": {"type": "categorical", "choices": ["a"]}, "y": {"type": "bool", "when": {"x": null}}}`, "space.y (line 1): when.x must be a list", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Space
			var err error
			if tt.json {
				err = s.UnmarshalJSON([]byte(tt.src))
			} else {
				var st struct{ Space *Space }
				err = yaml.Unmarshal([]byte(tt.src), &st)
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q, want the one error %q…", err, tt.want)
			}
		})
	}
}

func TestBadJSON(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not object", `[1]`, "want a JSON object"},
		{"malformed", `{"x": {"type": "float", "low": 0, "high": 1}`, "malformed JSON"},
		{"trailing", `{"x": {"type": "bool"}} {}`, "unexpected data"},
		{"duplicate", "{\"x\": {\"type\": \"bool\"},\n \"x\": {\"type\": \"bool\"}}", "space.x (line 2): declared twice"},
		{"unknown field", `{"x": {"type": "bool", "choice": [1]}}`, `space.x (line 1): unknown field "choice"`},
		{"missing type", `{"x": {"low": 0, "high": 1}}`, "space.x (line 1): missing type"},
		{"not a number", `{"x": {"type": "float", "low": "0", "high": 1}}`, `low must be a number, got "0"`},
		{"param not object", `{"x": 3}`, "want an object"},
		{"null bound", `{"x": {"type": "float", "low": null, "high": 1}}`, "low must be a number, got null"},
		{"null value", `{"w": {"type": "ordinal", "values": [null, 1]}}`, "values[0] must be a number, got null"},
		{"null log", `{"x": {"type": "float", "low": 1, "high": 2, "log": null}}`, "log must be true or false, got null"},
		{"bad values", `{"w": {"type": "ordinal", "values": [1, "b"]}}`, `values[1] must be a number`},
		{"nested choice", `{"k": {"type": "categorical", "choices": [[1]]}}`, "choices[0] must be a single value, got [1]"},
		{"bad when", `{"k": {"type": "bool", "when": ["a"]}}`, "when must be an object"},
		{"validation", "{\n\"C\": {\"type\": \"float\", \"low\": 0, \"high\": 1, \"log\": true}}", "space.C (line 2): log scale needs low > 0, got low = 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s Space
			// Called directly: json.Unmarshal checks the syntax first.
			err := s.UnmarshalJSON([]byte(tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestMarshalAllKinds(t *testing.T) {
	s := MustNew(
		Param{Name: "x", Kind: Float, Low: -1.5, High: 2},
		Param{Name: "n", Kind: Int, Low: 1, High: 1024, Log: true},
		Param{Name: "w", Kind: Ordinal, Values: []float64{0.1, 0.2}},
		Param{Name: "k", Kind: Categorical, Choices: []string{"16", "true", "a b", ""}},
		Param{Name: "b", Kind: Bool, When: map[string][]string{"k": {"a b", "16"}, "n": {"2"}}},
	)
	y, err := yaml.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var fromYAML Space
	if err := yaml.Unmarshal(y, &fromYAML); err != nil {
		t.Fatalf("re-reading\n%s: %v", y, err)
	}
	j, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var fromJSON Space
	if err := json.Unmarshal(j, &fromJSON); err != nil {
		t.Fatalf("re-reading %s: %v", j, err)
	}
	for name, got := range map[string]*Space{"YAML": &fromYAML, "JSON": &fromJSON} {
		if !reflect.DeepEqual(got.Params(), s.Params()) {
			t.Errorf("%s round trip\n got %+v\nwant %+v", name, got.Params(), s.Params())
		}
	}
}
