package config

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const spaceDoc = "space:\n  x: {type: float, low: 0, high: 1}\n"

// TestSamplerMappingForm: a sampler with options, in YAML and in JSON,
// reaches the study's Spec with its options as text; both forms write
// back as they were read.
func TestSamplerMappingForm(t *testing.T) {
	y, err := ParseYAML([]byte("name: a\nsampler: {type: gpbo, acquisition: ei, samples: 50}\n" + spaceDoc))
	if err != nil {
		t.Fatal(err)
	}
	j, err := ParseJSON([]byte(`{"name":"a","sampler":{"type":"gpbo","acquisition":"ei","samples":50},"space":{"x":{"type":"float","low":0,"high":1}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for form, s := range map[string]*Study{"YAML": y, "JSON": j} {
		spec, err := s.Spec()
		if err != nil {
			t.Fatal(err)
		}
		if spec.Sampler != "gpbo" || spec.SamplerOptions["acquisition"] != "ei" || spec.SamplerOptions["samples"] != "50" || len(spec.SamplerOptions) != 2 {
			t.Errorf("%s: sampler %q, options %v", form, spec.Sampler, spec.SamplerOptions)
		}
	}
	b, err := json.Marshal(y)
	if err != nil || !strings.Contains(string(b), `"sampler":{"acquisition":"ei","samples":"50","type":"gpbo"}`) {
		t.Errorf("JSON of the mapping form: %s, %v", b, err)
	}
	again, err := ParseJSON(b)
	if err != nil || again.Sampler.Options["samples"] != "50" {
		t.Errorf("JSON round trip: %+v, %v", again, err)
	}
	plain, err := ParseYAML([]byte("name: a\nsampler: gpbo\n" + spaceDoc))
	if err != nil {
		t.Fatal(err)
	}
	out, err := yaml.Marshal(plain)
	if err != nil || !strings.Contains(string(out), "sampler: gpbo\n") {
		t.Errorf("YAML of a plain name:\n%s%v", out, err)
	}
	if b, _ := json.Marshal(&Study{Name: "a"}); strings.Contains(string(b), "sampler") {
		t.Errorf("an unset sampler is written: %s", b)
	}
}

// TestSamplerOptionErrors: a bad option is refused with its line and what
// the sampler accepts, in YAML and JSON alike.
func TestSamplerOptionErrors(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{"sampler: {type: gpbo, acquisition: nope}", `line 2: sampler: sampler gpbo: option acquisition: unknown acquisition "nope"; want one of logei, ei, pi, lcb, ucb, gp-ucb, ts, fitbo, fitbo-mm, mes, pes, kg`},
		{"sampler: {type: gpbo, colour: red}", `unknown option "colour" (the options are acquisition, ard, candidates`},
		{"sampler: {type: gpbo, samples: 0}", `option samples: "0" is not an integer ≥ 1`},
		{"sampler: {type: random, acquisition: ei}", "sampler random takes no options (given: acquisition)"},
		{"sampler: {acquisition: ei}", "line 2: sampler: the mapping needs a type"},
		{"sampler: {type: gpbo, acquisition: [ei, pi]}", "line 2: sampler.acquisition: want a name, number or boolean, got a list"},
		{"sampler: [gpbo]", "want a sampler name such as gpbo, or a mapping such as {type: gpbo, acquisition: fitbo}, got a list"},
		{"sampler: {type: fitbo, marginalise: map}", "marginalise: map is not available for it"},
	} {
		_, err := ParseYAML([]byte("name: a\n" + c.doc + "\n" + spaceDoc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.doc, err, c.want)
		}
	}
	for _, c := range []struct{ doc, want string }{
		{`{"type":"gpbo","acquisition":"nope"}`, `unknown acquisition "nope"`},
		{`{"acquisition":"ei"}`, "the object needs a type"},
		{`{"type":"gpbo","samples":[1]}`, "sampler.samples: want a string, number or boolean, got a list"},
		{`7`, "want a name such as"},
	} {
		_, err := ParseJSON([]byte(`{"name":"a","sampler":` + c.doc + `,"space":{"x":{"type":"float","low":0,"high":1}}}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("JSON %s:\n got %v\nwant %s", c.doc, err, c.want)
		}
	}
}
