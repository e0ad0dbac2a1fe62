package tinyml

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/boaopt/boa/space"
)

// Template is a network description whose fields may name a search
// space's parameters: a string "${filters}" stands for the value of
// parameter filters in each configuration, and a layer with
// `omit_when: {removal_layer: 2}` is left out of the configurations where
// removal_layer is 2 (Table 7.7's Removal Layer). So a study turns each
// trial's parameters into the network it trains, and tinyml's model into
// its RAM, ROM and X-CROSS before it trains (examples/tinyml/).
//
// A Template is the decoded YAML or JSON tree (maps, lists, strings,
// numbers), as a study file's deploy.network holds it.
type Template struct{ tree any }

// NewTemplate wraps a decoded network description (from yaml or json
// Unmarshal into an any).
func NewTemplate(tree any) Template { return Template{tree} }

// MarshalJSON implements json.Marshaler: the tree as it was given.
func (t Template) MarshalJSON() ([]byte, error) { return json.Marshal(t.tree) }

// UnmarshalJSON implements json.Unmarshaler.
func (t *Template) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &t.tree) }

// Params lists the parameters the template names, in order of first use.
func (t Template) Params() []string {
	var names []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if name, ok := placeholder(v); ok && !slices.Contains(names, name) {
				names = append(names, name)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if k == "omit_when" {
					if m, ok := v[k].(map[string]any); ok {
						for _, p := range slices.Sorted(maps.Keys(m)) {
							if !slices.Contains(names, p) {
								names = append(names, p)
							}
						}
					}
				}
				walk(v[k])
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(t.tree)
	return names
}

// Network is the network of the configuration a: every placeholder
// replaced by its parameter's value, the omitted layers left out, parsed
// and checked as ParseNetwork does. A placeholder naming a parameter a
// does not have is an error naming both.
func (t Template) Network(a space.Assignment) (Network, error) {
	var err error
	var fill func(v any, path string) any
	fill = func(v any, path string) any {
		switch v := v.(type) {
		case string:
			if name, ok := placeholder(v); ok {
				x, found := a[name]
				if !found {
					err = fmt.Errorf("network: %s: %q names no parameter of the space", path, v)
					return nil
				}
				if f, ok := x.(float64); ok && f == math.Trunc(f) {
					return int(f) // a float parameter may hold a whole count
				}
				return x
			}
			return v
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, e := range v {
				out[k] = fill(e, path+"."+k)
			}
			return out
		case []any:
			var out []any
			for i, e := range v {
				if m, ok := e.(map[string]any); ok && omitted(m, a) {
					continue
				}
				if m, ok := e.(map[string]any); ok {
					e = maps.Clone(m)
					delete(e.(map[string]any), "omit_when")
				}
				out = append(out, fill(e, fmt.Sprintf("%s[%d]", path, i)))
			}
			return out
		}
		return v
	}
	tree := fill(t.tree, "network")
	if err != nil {
		return Network{}, err
	}
	b, err := json.Marshal(tree)
	if err != nil {
		return Network{}, fmt.Errorf("network: %w", err)
	}
	return ParseNetwork(b)
}

// placeholder returns the parameter "${name}" names.
func placeholder(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "${") && strings.HasSuffix(s, "}") {
		return strings.TrimSpace(s[2 : len(s)-1]), true
	}
	return "", false
}

// omitted reports whether layer m's omit_when holds for a: every named
// parameter has the given value.
func omitted(m map[string]any, a space.Assignment) bool {
	cond, ok := m["omit_when"].(map[string]any)
	if !ok {
		return false
	}
	for p, want := range cond {
		if fmt.Sprint(a[p]) != fmt.Sprint(want) {
			return false
		}
	}
	return len(cond) > 0
}
