package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/pruner"
)

// Pruner is a study file's pruner: a name,
//
//	pruner: median
//
// or a mapping of the fields of pruner.Spec, named as Optuna names its
// pruners' arguments,
//
//	pruner: {type: successive_halving, reduction_factor: 3}
//
// in YAML and in JSON alike.
type Pruner struct{ pruner.Spec }

func (p *Pruner) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		p.Spec = pruner.Spec{Type: name}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p.Spec); err != nil {
		return fmt.Errorf("pruner: want a name (median, ...) or an object of %s: %w", strings.Join(pruner.Fields, ", "), jsonError(err))
	}
	return nil
}

func (p Pruner) MarshalJSON() ([]byte, error) { return json.Marshal(p.Spec) }

// MarshalYAML writes the fields under their JSON names, as the study file
// has them.
func (p Pruner) MarshalYAML() (any, error) {
	b, err := json.Marshal(p.Spec)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(b, &m)
}

// PrunerSpec returns the file's pruner; its Type is "" when it has none.
func (s *Study) PrunerSpec() pruner.Spec {
	if s.Pruner == nil {
		return pruner.Spec{}
	}
	return s.Pruner.Spec
}

// parsePruner decodes the pruner field val into spec: a scalar is the
// type, a mapping sets the fields of pruner.Spec by their JSON names, each
// error naming its field and line.
func parsePruner(key, val *yaml.Node, spec *pruner.Spec, lines map[string]int, add func(line int, field, format string, args ...any)) {
	switch val.Kind {
	case yaml.ScalarNode:
		decodeField(val, &spec.Type, "a pruner name", "pruner", add)
		return
	case yaml.MappingNode:
	default:
		add(key.Line, "pruner", "want a pruner name such as median, or a mapping such as {type: hyperband, reduction_factor: 3}, got %s", nodeKind(val))
		return
	}
	fields := specFields(spec)
	eachField(val, "pruner.", pruner.Fields, lines, add, func(k, v *yaml.Node) {
		f, name := fields[k.Value], "pruner."+k.Value // f: Type (a string), or a pointer field
		if f.Kind() == reflect.String {
			decodeField(v, f.Addr().Interface(), "a string", name, add)
			return
		}
		nv := reflect.New(f.Type().Elem()) // a new int for an *int field
		if k := nv.Elem().Kind(); k == reflect.Int || k == reflect.Int64 {
			decodeWhole(v, nv.Interface(), "an integer", name, add)
		} else {
			decodeField(v, nv.Interface(), "a number", name, add)
		}
		f.Set(nv)
	})
}

// specFields maps the JSON names of spec's fields to the fields.
func specFields(spec *pruner.Spec) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	v := reflect.ValueOf(spec).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		out[name] = v.Field(i)
	}
	return out
}
