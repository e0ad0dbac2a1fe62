package config

import (
	"encoding/json"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/sampler"
)

// Sampler is a study file's sampler: a name,
//
//	sampler: gpbo
//
// or a mapping of its type and its options (sampler.Options),
//
//	sampler: {type: gpbo, acquisition: fitbo, samples: 200}
//
// in YAML and in JSON alike. Which options a sampler takes is the
// sampler's to say (sampler.Configurable): Validate asks it.
type Sampler struct {
	Type    string
	Options sampler.Options
}

// IsZero reports a sampler left to its default (auto), so that an
// unset field is not written.
func (s Sampler) IsZero() bool { return s.Type == "" && len(s.Options) == 0 }

func (s *Sampler) UnmarshalJSON(b []byte) error {
	*s = Sampler{}
	if json.Unmarshal(b, &s.Type) == nil {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("sampler: want a name such as \"gpbo\" or an object such as {\"type\": \"gpbo\", \"acquisition\": \"fitbo\"}, got %s", b)
	}
	for k, v := range m {
		var text string
		switch v := v.(type) {
		case string:
			text = v
		case float64:
			text = strconv.FormatFloat(v, 'g', -1, 64)
		case bool:
			text = strconv.FormatBool(v)
		default:
			return fmt.Errorf("sampler.%s: want a string, number or boolean, got %s", k, jsonKind(v))
		}
		if k == "type" {
			s.Type = text
			continue
		}
		if s.Options == nil {
			s.Options = sampler.Options{}
		}
		s.Options[k] = text
	}
	if s.Type == "" {
		return fmt.Errorf("sampler: the object needs a type, such as {\"type\": \"gpbo\"}")
	}
	return nil
}

func (s Sampler) MarshalJSON() ([]byte, error) { return json.Marshal(s.value()) }
func (s Sampler) MarshalYAML() (any, error)    { return s.value(), nil }

// value is the name alone when there are no options, else the mapping.
func (s Sampler) value() any {
	if len(s.Options) == 0 {
		return s.Type
	}
	m := map[string]string{"type": s.Type}
	for k, v := range s.Options {
		m[k] = v
	}
	return m
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}

// parseSampler decodes the sampler field val: a scalar is the type; a
// mapping has the type under "type" and the options under their own
// names, each a scalar, each error naming its field and line.
func parseSampler(key, val *yaml.Node, s *Sampler, lines map[string]int, add func(line int, field, format string, args ...any)) {
	switch val.Kind {
	case yaml.ScalarNode:
		decodeField(val, &s.Type, "a sampler name", "sampler", add)
		return
	case yaml.MappingNode:
	default:
		add(key.Line, "sampler", "want a sampler name such as gpbo, or a mapping such as {type: gpbo, acquisition: fitbo}, got %s", nodeKind(val))
		return
	}
	for i := 0; i+1 < len(val.Content); i += 2 {
		k, v := val.Content[i], resolveAlias(val.Content[i+1])
		path := "sampler." + k.Value
		switch {
		case lines[path] > 0:
			add(k.Line, path, "given twice (lines %d and %d)", lines[path], k.Line)
			continue
		case v.Kind != yaml.ScalarNode || isNull(v):
			add(v.Line, path, "want a name, number or boolean, got %s", nodeKind(v))
			continue
		}
		lines[path] = k.Line
		if k.Value == "type" {
			s.Type = v.Value
			continue
		}
		if s.Options == nil {
			s.Options = sampler.Options{}
		}
		s.Options[k.Value] = v.Value
	}
	if s.Type == "" {
		add(key.Line, "sampler", "the mapping needs a type, such as {type: gpbo, acquisition: fitbo}")
	}
}
