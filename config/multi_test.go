package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/study"
)

const twoObjectives = `name: mo
DIRECTIONS
SAMPLER
space:
  x: {type: float, low: 0, high: 1}
objective:
  command: [echo, "{x}"]
`

func moYAML(directions, sampler string) string {
	return strings.NewReplacer("DIRECTIONS", directions, "SAMPLER", sampler).Replace(twoObjectives)
}

// TestDirections: directions as a mapping (names, in the order written)
// or a list (value_0, value_1) in YAML and JSON; what a study of several
// objectives cannot have is refused at its line.
func TestDirections(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		json bool
		want []study.Goal
	}{
		{doc: moYAML("directions: {latency: minimize, accuracy: maximize}", ""), want: []study.Goal{{Name: "latency", Direction: study.Minimize}, {Name: "accuracy", Direction: study.Maximize}}},
		{doc: moYAML("directions: [maximize, min]", ""), want: []study.Goal{{Name: "value_0", Direction: study.Maximize}, {Name: "value_1", Direction: study.Minimize}}},
		{doc: `{"name":"mo","directions":{"b":"maximize","a":"minimize"},"space":{"x":{"type":"float","low":0,"high":1}}}`, json: true,
			want: []study.Goal{{Name: "b", Direction: study.Maximize}, {Name: "a", Direction: study.Minimize}}},
	} {
		parse := ParseYAML
		if tc.json {
			parse = ParseJSON
		}
		s, err := parse([]byte(tc.doc))
		if err == nil {
			err = s.Validate()
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.doc, err)
		}
		spec, err := s.Spec()
		if err != nil || !slices.Equal(spec.Objectives, tc.want) {
			t.Errorf("%s: objectives %v, %v; want %v", tc.doc, spec.Objectives, err, tc.want)
		}
	}
	for doc, want := range map[string]string{
		moYAML("directions: [maximize, sideways]", ""):                      `line 2: directions: objective 2: direction must be minimize or maximize, got "sideways"`,
		moYAML("directions: {a: maximize, a: minimize}", ""):                `"a"`,
		moYAML("directions: [maximize, minimize]\ndirection: maximize", ""): "give direction (one objective) or directions (several), not both",
		moYAML("directions: [maximize, minimize]", "sampler: gpbo"):         "sampler gpbo optimises one objective",
		moYAML("directions: {state: maximize, b: minimize}", ""):            `objective name "state" names a column of boa export's table`,
		moYAML("directions: 3", ""):                                         "want a list of senses or a mapping",
	} {
		s, err := ParseYAML([]byte(doc))
		if err == nil {
			err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", doc, err, want)
		}
	}
}

// TestFidelity: the fidelity is parsed, passed to the study with the
// resources of a Hyperband pruner that leaves them out, and refused when
// named like a parameter, empty, or with unknown fields; the command may
// name it.
func TestFidelity(t *testing.T) {
	doc := "name: mf\nfidelity: {name: epochs, min: 1, max: 50}\npruner: hyperband\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective:\n  command: [train, --epochs, \"{epochs}\", --x, \"{x}\"]\n"
	s, err := ParseYAML([]byte(doc))
	if err == nil {
		err = s.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	spec, err := s.Spec()
	if err != nil || *spec.Fidelity != (study.Fidelity{Name: "epochs", Min: 1, Max: 50}) {
		t.Fatalf("fidelity %+v, %v", spec.Fidelity, err)
	}
	for bad, want := range map[string]string{
		"{name: x, min: 1, max: 50}":            `fidelity: name "x" is a parameter's name too`,
		"{name: epochs, min: 5, max: 5}":        "want 0 ≤ min < max",
		"{name: epochs, min: 1, max: 9, by: 2}": "fidelity.by",
		"epochs":                                "want a mapping such as {name: epochs, min: 1, max: 50}",
	} {
		s, err := ParseYAML([]byte(strings.Replace(doc, "{name: epochs, min: 1, max: 50}", bad, 1)))
		if err == nil {
			err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("fidelity %s: error %v, want %q", bad, err, want)
		}
	}
}
