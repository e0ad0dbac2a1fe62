package config

import (
	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/study"
)

// Fidelity is the study file's fidelity: `fidelity: {name: epochs, min: 1,
// max: 50}`. Each trial's command gets the maximum as {epochs} (and
// BOA_FIDELITY), reports its value after each epoch (BOA_REPORT <epoch>
// <value>), and the study's pruner, or a multi-fidelity sampler's
// schedule, stops it earlier (docs/multifidelity.md).
type Fidelity struct {
	Name string `yaml:"name" json:"name"`
	Min  int64  `yaml:"min" json:"min"`
	Max  int64  `yaml:"max" json:"max"`
}

var fidelityFields = []string{"name", "min", "max"}

func parseFidelity(key, val *yaml.Node, f *Fidelity, lines map[string]int, add func(line int, field, format string, args ...any)) {
	if val.Kind != yaml.MappingNode {
		add(key.Line, "fidelity", "want a mapping such as {name: epochs, min: 1, max: 50}, got %s", nodeKind(val))
		return
	}
	eachField(val, "fidelity.", fidelityFields, lines, add, func(k, v *yaml.Node) {
		field := "fidelity." + k.Value
		switch k.Value {
		case "name":
			decodeField(v, &f.Name, "a name such as epochs", field, add)
		case "min":
			decodeWhole(v, &f.Min, "an integer", field, add)
		case "max":
			decodeWhole(v, &f.Max, "an integer", field, add)
		}
	})
}

// spec is the fidelity as study.Spec takes it; nil for none.
func (f *Fidelity) spec() *study.Fidelity {
	if f == nil {
		return nil
	}
	return &study.Fidelity{Name: f.Name, Min: f.Min, Max: f.Max}
}

// names is the fidelity's placeholder name, if any, for the command's
// validation.
func (f *Fidelity) names() []string {
	if f == nil {
		return nil
	}
	return []string{f.Name}
}
