package space

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// UnmarshalYAML reads the `space:` mapping of a study file (DESIGN.md §2.2):
// parameter name → {type, low, high, log, values, choices, when}, in
// declaration order. type is required and unknown fields are errors.
// Categorical choices may be scalars of any YAML type (16, relu, true) and
// are kept as the strings written. Errors name the parameter, the line and
// the problem, e.g. `space.C (line 7): log scale needs low > 0, got low = 0`.
func (s *Space) UnmarshalYAML(n *yaml.Node) error {
	n = resolveAlias(n)
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = resolveAlias(n.Content[0])
	}
	if n.Kind != yaml.MappingNode {
		return &ParamError{Line: n.Line, Msg: "want a mapping of parameter name to {type: ..., ...}, got " + nodeKind(n)}
	}
	var raws []*rawParam
	var errs []*ParamError
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolveAlias(n.Content[i+1])
		r := newRaw(key.Value, key.Line)
		if key.Kind != yaml.ScalarNode || key.Value == "" {
			errs = append(errs, &ParamError{Line: key.Line, Msg: "a parameter name must be a non-empty string"})
			continue
		}
		if l, dup := seen[key.Value]; dup {
			errs = append(errs, &ParamError{Param: key.Value, Line: key.Line, Msg: fmt.Sprintf("declared twice (lines %d and %d)", l, key.Line)})
			continue
		}
		seen[key.Value] = key.Line
		errs = append(errs, r.readYAML(val)...)
		raws = append(raws, r)
	}
	if len(raws) == 0 && len(errs) == 0 {
		return &ParamError{Line: n.Line, Msg: "the space has no parameters; declare at least one"}
	}
	sp, err := buildRaw(raws, errs)
	if err != nil {
		return err
	}
	*s = *sp
	return nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a document"
}

// readYAML reads the declaration {type: ..., ...} of one parameter.
func (r *rawParam) readYAML(n *yaml.Node) []*ParamError {
	var errs []*ParamError
	add := func(line int, field, format string, args ...any) {
		errs = append(errs, &ParamError{Param: r.name, Field: field, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if n.Kind != yaml.MappingNode {
		add(n.Line, "", "want a mapping such as {type: float, low: 0, high: 1}, got %s", nodeKind(n))
		r.unread = true
		return errs
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolveAlias(n.Content[i+1])
		f := key.Value
		if !slices.Contains(knownFields, f) {
			add(key.Line, "", "unknown field %q; the fields are "+strings.Join(knownFields, ", "), f)
			continue
		}
		if r.present[f] {
			add(key.Line, f, "field %s is given twice", f)
			continue
		}
		r.present[f] = true
		r.lines[f] = key.Line
		var msg string
		switch f {
		case "type":
			if val.Kind != yaml.ScalarNode {
				msg = "type must be one of float, int, ordinal, categorical, bool, got " + nodeKind(val)
				r.unread = true
			}
			r.kind = val.Value
		case "low":
			r.p.Low, msg = yamlNumber(val, "low")
		case "high":
			r.p.High, msg = yamlNumber(val, "high")
		case "input_noise":
			r.p.InputNoise, msg = yamlNumber(val, "input_noise")
		case "log":
			if val.Kind != yaml.ScalarNode || val.ShortTag() != "!!bool" || val.Decode(&r.p.Log) != nil {
				msg = "log must be true or false, got " + nodeKind(val)
			}
		case "values":
			r.p.Values, msg = yamlNumbers(val)
		case "choices":
			r.p.Choices, msg = yamlScalars(val, "choices")
		case "when":
			r.p.When, msg = yamlWhen(val)
		}
		if msg != "" {
			add(key.Line, f, "%s", msg)
		}
	}
	return errs
}

func yamlNumber(n *yaml.Node, field string) (float64, string) {
	var f float64
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&f) != nil {
		return 0, fmt.Sprintf("%s must be a number, got %s", field, nodeKind(n))
	}
	return f, ""
}

func yamlNumbers(n *yaml.Node) ([]float64, string) {
	if n.Kind != yaml.SequenceNode {
		return nil, "values must be a list of numbers such as [16, 32, 64], got " + nodeKind(n)
	}
	vs := make([]float64, len(n.Content))
	for i, c := range n.Content {
		var msg string
		if vs[i], msg = yamlNumber(resolveAlias(c), fmt.Sprintf("values[%d]", i)); msg != "" {
			return nil, msg
		}
	}
	return vs, ""
}

func yamlScalars(n *yaml.Node, field string) ([]string, string) {
	if n.Kind == yaml.ScalarNode && n.ShortTag() != "!!null" {
		return []string{n.Value}, ""
	}
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Sprintf("%s must be a list such as [a, b], got %s", field, nodeKind(n))
	}
	vs := make([]string, len(n.Content))
	for i, c := range n.Content {
		c = resolveAlias(c)
		if c.Kind != yaml.ScalarNode || c.ShortTag() == "!!null" {
			return nil, fmt.Sprintf("%s[%d] must be a single value, got %s", field, i, nodeKind(c))
		}
		vs[i] = c.Value
	}
	return vs, ""
}

func yamlWhen(n *yaml.Node) (map[string][]string, string) {
	if n.Kind != yaml.MappingNode {
		return nil, "when must be a mapping of parent to values such as {kernel: [poly]}, got " + nodeKind(n)
	}
	w := map[string][]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolveAlias(n.Content[i+1])
		if _, dup := w[key.Value]; dup {
			return nil, fmt.Sprintf("when lists %s twice", key.Value)
		}
		vs, msg := yamlScalars(val, "when."+key.Value)
		if msg != "" {
			return nil, msg
		}
		w[key.Value] = vs
	}
	return w, ""
}

// MarshalYAML writes the space as the `space:` mapping of a study file, one
// flow mapping per parameter, in declaration order.
func (s *Space) MarshalYAML() (any, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, p := range s.params {
		v := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
		add := func(key string, val *yaml.Node) {
			v.Content = append(v.Content, str(key), val)
		}
		add("type", str(p.Kind.String()))
		switch p.Kind {
		case Float, Int:
			add("low", num(p.Low))
			add("high", num(p.High))
			if p.Log {
				add("log", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"})
			}
			if p.InputNoise > 0 {
				add("input_noise", num(p.InputNoise))
			}
		case Ordinal:
			seq := flowSeq()
			for _, x := range p.Values {
				seq.Content = append(seq.Content, num(x))
			}
			add("values", seq)
		case Categorical:
			seq := flowSeq()
			for _, c := range p.Choices {
				seq.Content = append(seq.Content, str(c))
			}
			add("choices", seq)
		}
		if len(p.When) > 0 {
			w := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Style: yaml.FlowStyle}
			for _, c := range s.conds[s.index[p.Name]] {
				parent := s.params[c.parent].Name
				seq := flowSeq()
				for _, x := range p.When[parent] {
					seq.Content = append(seq.Content, str(x))
				}
				w.Content = append(w.Content, str(parent), seq)
			}
			add("when", w)
		}
		m.Content = append(m.Content, str(p.Name), v)
	}
	return m, nil
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func num(x float64) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: Format(x)}
}

func flowSeq() *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
}
