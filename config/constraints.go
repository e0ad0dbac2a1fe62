package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems"
)

// Constraints are a study file's limits on the metrics its trials report
// [spec constrained-autotinyml §1]:
//
//	constraints: {ram_kb: {max: 256}, accuracy: {min: 0.8}}
//
// in YAML and in JSON alike (study.Spec.Constraints).
type Constraints constraint.Set

// limitFields are the fields of a limit, as written in a study file.
var limitFields = []string{"min", "max"}

const constraintsExample = "{ram_kb: {max: 256}, accuracy: {min: 0.8}}"

// UnmarshalJSON reads {"ram_kb": {"max": 256}}, refusing unknown fields
// inside a limit by name.
func (c *Constraints) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		return fmt.Errorf(`constraints: want an object of limits such as {"ram_kb": {"max": 256}, "accuracy": {"min": 0.8}}, got %s`, clip(b))
	}
	out := make(Constraints, len(raw))
	for name, r := range raw {
		if r = bytes.TrimSpace(r); len(r) == 0 || r[0] != '{' {
			return fmt.Errorf(`constraints.%s: want a limit such as {"max": 256}, {"min": 0.8} or {"min": 1, "max": 2}, got %s`, name, clip(r))
		}
		var l constraint.Limit
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
				return fmt.Errorf("constraints.%s: unknown field %s; a limit has the fields min and max", name, msg)
			}
			return fmt.Errorf("constraints.%s.%w", name, jsonError(err))
		}
		out[name] = l
	}
	*c = out
	return nil
}

// clip shortens a value quoted in an error message.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// parseConstraints decodes the constraints field val into c, each error
// naming its metric (constraints.NAME) and line.
func parseConstraints(key, val *yaml.Node, c *Constraints, lines map[string]int, add func(line int, field, format string, args ...any)) {
	if val.Kind != yaml.MappingNode {
		add(key.Line, "constraints", "want a mapping of limits such as %s, got %s", constraintsExample, nodeKind(val))
		return
	}
	*c = Constraints{}
	for i := 0; i+1 < len(val.Content); i += 2 {
		k, v := val.Content[i], resolveAlias(val.Content[i+1])
		field := "constraints." + k.Value
		if lines[field] > 0 {
			add(k.Line, field, "given twice (lines %d and %d)", lines[field], k.Line)
			continue
		}
		lines[field] = k.Line
		if v.Kind != yaml.MappingNode {
			add(k.Line, field, "want a limit such as {max: 256}, {min: 0.8} or {min: 1, max: 2}, got %s", nodeKind(v))
			continue
		}
		var l constraint.Limit
		eachField(v, field+".", limitFields, lines, add, func(fk, fv *yaml.Node) {
			x := new(float64)
			decodeField(fv, x, "a number", field+"."+fk.Value, add)
			if fk.Value == "min" {
				l.Min = x
			} else {
				l.Max = x
			}
		})
		(*c)[k.Value] = l
	}
}

// validateConstraints checks each limit (constraint.Set.Validate) and, for
// a built-in function, that it reports the metric.
func (s *Study) validateConstraints(add func(field, format string, args ...any)) {
	if s.Constraints == nil {
		return
	}
	set := constraint.Set(s.Constraints)
	if len(set) == 0 {
		add("constraints", "empty: give a limit per metric, such as %s, or leave constraints out", constraintsExample)
	}
	var reported []string
	function := s.Objective != nil && s.Objective.Function != "" && len(s.Objective.Command) == 0
	if function {
		reported = problems.Metrics(s.Objective.Function)
	}
	for _, n := range set.Names() {
		field := "constraints." + n
		if err := (constraint.Set{n: set[n]}).Validate(); err != nil {
			add(field, "%s", strings.TrimPrefix(strings.TrimPrefix(err.Error(), "constraints: "), n+": "))
			continue
		}
		if function && !slices.Contains(reported, n) {
			what := "no metrics"
			if len(reported) > 0 {
				what = strings.Join(reported, ", ")
			}
			add(field, "the built-in function %s does not report %s, so the limit could never hold; it reports %s", s.Objective.Function, n, what)
		}
	}
}
