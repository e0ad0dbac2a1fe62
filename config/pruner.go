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
		f := fields[k.Value] // a pointer to the field (Type) or to the pointer field (the others)
		want := "a number"
		switch f.Type().Elem().Kind() {
		case reflect.String:
			want = "a string"
		case reflect.Pointer:
			if k := f.Type().Elem().Elem().Kind(); k == reflect.Int || k == reflect.Int64 {
				want = "an integer"
			}
		}
		dst := f.Interface()
		if f.Type().Elem().Kind() == reflect.Pointer {
			nv := reflect.New(f.Type().Elem().Elem()) // e.g. a new int for *int
			if want == "an integer" {
				decodeWhole(v, nv.Interface(), want, "pruner."+k.Value, add)
			} else {
				decodeField(v, nv.Interface(), want, "pruner."+k.Value, add)
			}
			f.Elem().Set(nv)
			return
		}
		decodeField(v, dst, want, "pruner."+k.Value, add)
	})
}

// specFields maps the JSON names of spec's fields to pointers to them.
func specFields(spec *pruner.Spec) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	v := reflect.ValueOf(spec).Elem()
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		out[name] = v.Field(i).Addr()
	}
	return out
}
