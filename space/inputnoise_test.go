package space

import (
	"encoding/json"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestInputNoise: a float declares the noise with which its value is
// applied, in YAML, JSON and Go; it round-trips, maps onto the features,
// and is refused where it means nothing.
func TestInputNoise(t *testing.T) {
	var sp Space
	doc := "x: {type: float, low: -1, high: 3, input_noise: 0.2}\nn: {type: int, low: 1, high: 4}\ny: {type: float, low: 0, high: 1}\n"
	if err := yaml.Unmarshal([]byte(doc), &sp); err != nil {
		t.Fatal(err)
	}
	if got := sp.Param(0).InputNoise; got != 0.2 {
		t.Fatalf("InputNoise = %v, want 0.2", got)
	}
	if got := sp.FeatureNoise(); len(got) != 3 || got[0] != 0.05 || got[1] != 0 || got[2] != 0 {
		t.Errorf("FeatureNoise = %v, want [0.05 0 0] (0.2 over a range of 4)", got)
	}
	js, err := json.Marshal(&sp)
	if err != nil || !strings.Contains(string(js), `"input_noise":0.2`) {
		t.Fatalf("MarshalJSON = %s, %v", js, err)
	}
	var back Space
	if err := json.Unmarshal(js, &back); err != nil || back.Param(0).InputNoise != 0.2 {
		t.Fatalf("JSON round trip: %v, %v", back.Param(0), err)
	}
	y, err := yaml.Marshal(&sp)
	if err != nil || !strings.Contains(string(y), "input_noise: 0.2") {
		t.Errorf("MarshalYAML = %s, %v", y, err)
	}
	if MustNew(Param{Name: "x", Kind: Float, Low: 0, High: 1}).FeatureNoise() != nil {
		t.Error("FeatureNoise of a space without input noise is not nil")
	}
	for doc, want := range map[string]string{
		"k: {type: categorical, choices: [a, b], input_noise: 0.1}":                                                    "input_noise is not a field of a categorical parameter",
		"n: {type: int, low: 1, high: 4, input_noise: 0.1}":                                                            "input_noise is not a field of a int parameter",
		"x: {type: float, low: 0, high: 1, input_noise: -0.1}":                                                         "input_noise must be a finite standard deviation > 0, got -0.1",
		"x: {type: float, low: 0.1, high: 1, log: true, input_noise: 0.01}":                                            "input_noise is for a linear float",
		"x: {type: float, low: 0, high: 1, input_noise: 2}":                                                            "input_noise 2 is as wide as the range [0, 1]",
		"x: {type: float, low: 0, high: 1, input_noise: lots}":                                                         "input_noise",
		"k: {type: categorical, choices: [a, b]}\nx: {type: float, low: 0, high: 1, input_noise: 0.1, when: {k: [a]}}": "input_noise on a conditional parameter is not supported",
	} {
		var s Space
		err := yaml.Unmarshal([]byte(doc), &s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", doc, err, want)
		}
	}
	if _, err := New(Param{Name: "k", Kind: Categorical, Choices: []string{"a"}, InputNoise: 0.1}); err == nil || !strings.Contains(err.Error(), "input_noise is only for float parameters") {
		t.Errorf("New with input noise on a categorical: %v", err)
	}
}
