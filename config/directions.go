package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// Directions are the objectives of a multi-objective study, in order
// (issue 43): a list of senses, `directions: [maximize, minimize]`, whose
// objectives are then named value_0, value_1, …, or a mapping from names
// to senses in the order written, `directions: {accuracy: maximize,
// latency: minimize}`. A command reports one value per objective, in this
// order or by name (BOA_RESULT, docs/multiobjective.md).
type Directions []NamedDirection

// NamedDirection is one objective: its name ("" in the list form) and
// its sense, minimize or maximize.
type NamedDirection struct {
	Name      string
	Direction string
}

// named reports whether d was written as a mapping.
func (d Directions) named() bool { return len(d) > 0 && d[0].Name != "" }

// Goals returns the objectives as study.Spec takes them.
func (d Directions) Goals() ([]study.Goal, error) {
	out := make([]study.Goal, len(d))
	for i, nd := range d {
		dir, err := study.ParseDirection(nd.Direction)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.label(i), err)
		}
		out[i] = study.Goal{Name: nd.Name, Direction: dir}
		if nd.Name == "" {
			out[i].Name = "value_" + strconv.Itoa(i)
		}
	}
	return out, nil
}

// label names objective i in a message.
func (d Directions) label(i int) string {
	if d[i].Name != "" {
		return strconv.Quote(d[i].Name)
	}
	return "objective " + strconv.Itoa(i+1)
}

func (d *Directions) UnmarshalYAML(n *yaml.Node) error {
	*d = nil
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return fmt.Errorf("want minimize or maximize, got %s", nodeKind(c))
			}
			*d = append(*d, NamedDirection{Direction: c.Value})
		}
	case yaml.MappingNode:
		for i := 0; i < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return fmt.Errorf("%s: want minimize or maximize, got %s", k.Value, nodeKind(v))
			}
			*d = append(*d, NamedDirection{Name: k.Value, Direction: v.Value})
		}
	default:
		return fmt.Errorf("want a list of senses or a mapping from objective names to senses, got %s", nodeKind(n))
	}
	return nil
}

func (d Directions) MarshalYAML() (any, error) {
	if !d.named() {
		out := make([]string, len(d))
		for i, nd := range d {
			out[i] = nd.Direction
		}
		return out, nil
	}
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, nd := range d {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: nd.Name}, &yaml.Node{Kind: yaml.ScalarNode, Value: nd.Direction})
	}
	return n, nil
}

// UnmarshalJSON reads a list of senses or an object from names to senses,
// keeping the object's order, which encoding/json's maps lose.
func (d *Directions) UnmarshalJSON(b []byte) error {
	*d = nil
	var list []string
	if json.Unmarshal(b, &list) == nil {
		for _, s := range list {
			*d = append(*d, NamedDirection{Direction: s})
		}
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("directions: want a list of senses or an object from objective names to senses")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return fmt.Errorf("directions: %w", err)
		}
		var v string
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("directions: %v: want minimize or maximize", k)
		}
		*d = append(*d, NamedDirection{Name: k.(string), Direction: v})
	}
	return nil
}

func (d Directions) MarshalJSON() ([]byte, error) {
	if !d.named() {
		out := make([]string, len(d))
		for i, nd := range d {
			out[i] = nd.Direction
		}
		return json.Marshal(out)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, nd := range d {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(nd.Name)
		v, _ := json.Marshal(nd.Direction)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// validateDirections checks the directions field: not with direction,
// each sense, the names, and what a study of several objectives needs
// of its sampler, transform and pruner (study.Spec.CheckObjectives).
func (s *Study) validateDirections(add func(field, format string, args ...any)) {
	if s.Direction != "" {
		add("directions", "give direction (one objective) or directions (several), not both")
		return
	}
	goals, err := s.Directions.Goals()
	if err != nil {
		add("directions", "%v", err)
		return
	}
	spec := study.Spec{Objectives: goals, Sampler: s.SamplerName(), SamplerOptions: s.Sampler.Options, Pruner: s.PrunerSpec()}
	spec.Transform, _ = transform.Parse(s.Transform) // a bad one is the transform field's error
	if err := spec.CheckObjectives(); err != nil {
		add("directions", "%v", err)
	}
}
