package config

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/boaopt/boa/space"
)

// ParseYAML reads and validates a study file. A file that is not YAML
// stops at the syntax error; otherwise every problem is reported, not
// only the first: unknown or repeated fields, values of the wrong type,
// each parameter's problems and those of Validate, one error each (joined
// with errors.Join, in line order), each naming its field and its line.
//
// Two syntax mistakes get a message of their own (yamlsyntax.go): a tab
// in the indentation, and a value ending in ':' (say, to quote it); the
// one of them with a single meaning, `storage: memory:`, is read as
// storage: "memory:".
func ParseYAML(data []byte) (*Study, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if fixed, ok := fixStorageColon(data, err); ok {
			return ParseYAML(fixed)
		}
		if hint := syntaxHint(data, err); hint != nil {
			return nil, hint
		}
		return nil, yamlError(err)
	}
	// A second document (after ---) would be ignored without a word; an
	// empty one (a trailing ---) is harmless.
	for {
		var next yaml.Node
		err := dec.Decode(&next)
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, yamlError(err)
		}
		if len(next.Content) == 1 && !isNull(next.Content[0]) {
			return nil, &fieldError{line: next.Content[0].Line, msg: "a second YAML document (after ---); a study file holds one study"}
		}
	}
	expandMerges(&doc, map[*yaml.Node]bool{})
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = resolveAlias(root.Content[0])
	}
	switch {
	case root.Kind == yaml.DocumentNode || isNull(root):
		return nil, errors.New("the study file is empty")
	case root.Kind != yaml.MappingNode:
		return nil, &fieldError{line: root.Line, msg: "a study file is a mapping of fields (name: ..., space: ...), got " + nodeKind(root)}
	}
	var (
		s     Study
		errs  []error
		lines = map[string]int{} // field → line, for Validate's errors
		info  = fileInfo{lines: lines, failed: map[string]bool{}}
	)
	add := func(line int, field, format string, args ...any) {
		errs = append(errs, &fieldError{line: line, field: field, msg: fmt.Sprintf(format, args...)})
		info.failed[field] = true
		if strings.HasPrefix(field, "objective.") {
			info.failed["objective"] = true // its checks need every field read
		}
		if strings.HasPrefix(field, "constraints.") {
			info.failed["constraints"] = true // a limit not read is not judged
		}
		if strings.HasPrefix(field, "deploy") {
			info.failed["deploy"] = true
		}
	}
	eachField(root, "", studyFields, lines, add, func(key, val *yaml.Node) {
		f := key.Value
		switch f {
		case "name":
			decodeField(val, &s.Name, "a string", f, add)
		case "direction":
			decodeField(val, &s.Direction, "minimize or maximize", f, add)
		case "directions":
			if err := val.Decode(&s.Directions); err != nil {
				add(val.Line, f, "%v", err)
			}
		case "storage":
			if memoryKey(val) {
				s.Storage = "memory:" // storage:\n  memory: — no other meaning
				return
			}
			decodeField(val, &s.Storage, "a storage URL such as sqlite:boa.db or \"memory:\" (quoted: a value ending in ':' starts a mapping)", f, add)
		case "sampler":
			parseSampler(key, val, &s.Sampler, lines, add)
		case "trials":
			decodeWhole(val, &s.Trials, "an integer", f, add)
		case "timeout":
			decodeDuration(key, val, f, &s.Timeout, add)
		case "workers":
			decodeWhole(val, &s.Workers, "an integer", f, add)
		case "seed":
			decodeWhole(val, &s.Seed, "an integer from 0", f, add)
		case "transform":
			decodeField(val, &s.Transform, "none, log or copula", f, add)
		case "pruner":
			if !isNull(val) {
				s.Pruner = &Pruner{}
				parsePruner(key, val, &s.Pruner.Spec, lines, add)
			}
		case "constraints":
			if !isNull(val) {
				parseConstraints(key, val, &s.Constraints, lines, add)
			}
		case "fidelity":
			if !isNull(val) {
				s.Fidelity = &Fidelity{}
				parseFidelity(key, val, s.Fidelity, lines, add)
			}
		case "deploy":
			if !isNull(val) {
				s.Deploy = &Deploy{}
				parseDeploy(key, val, s.Deploy, lines, add)
			}
		case "space":
			if isNull(val) {
				return // Validate says that a study needs a space
			}
			if val.Kind == yaml.MappingNode {
				info.namesKnown = true
				for i := 0; i < len(val.Content); i += 2 {
					info.paramNames = append(info.paramNames, val.Content[i].Value)
				}
			}
			sp := new(space.Space)
			if err := val.Decode(sp); err != nil {
				info.spaceFailed = true
				errs = append(errs, splitErrors(err)...)
				return
			}
			s.Space = sp
		case "objective":
			if isNull(val) {
				return
			}
			s.Objective = &Objective{}
			if val.Kind != yaml.MappingNode {
				add(key.Line, f, "want a mapping such as {command: [python3, train.py, \"{x}\"]}, got %s", nodeKind(val))
				return
			}
			parseObjective(val, s.Objective, lines, add)
		}
	})
	errs = append(errs, s.validate(info)...)
	if len(errs) == 0 {
		return &s, nil
	}
	slices.SortStableFunc(errs, func(a, b error) int { return cmp.Compare(errorLine(a), errorLine(b)) })
	return &s, errors.Join(errs...)
}

var (
	studyFields     = []string{"name", "direction", "directions", "storage", "sampler", "trials", "timeout", "workers", "seed", "transform", "pruner", "constraints", "fidelity", "deploy", "space", "objective"}
	objectiveFields = []string{"command", "function", "timeout", "env", "dir", "logs"}
)

// eachField calls fn with each field of mapping n that is one of known,
// records its line in lines (under prefix+name), and reports the unknown
// and repeated ones.
func eachField(n *yaml.Node, prefix string, known []string, lines map[string]int,
	add func(line int, field, format string, args ...any), fn func(key, val *yaml.Node)) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolveAlias(n.Content[i+1])
		path := prefix + key.Value
		switch {
		case !slices.Contains(known, key.Value):
			add(key.Line, path, "unknown field; the fields are %s", strings.Join(known, ", "))
		case lines[path] > 0:
			add(key.Line, path, "given twice (lines %d and %d)", lines[path], key.Line)
		default:
			lines[path] = key.Line
			fn(key, val)
		}
	}
}

func parseObjective(n *yaml.Node, o *Objective, lines map[string]int, add func(line int, field, format string, args ...any)) {
	eachField(n, "objective.", objectiveFields, lines, add, func(key, val *yaml.Node) {
		f := "objective." + key.Value
		switch key.Value {
		case "command":
			if val.Kind != yaml.SequenceNode && !isNull(val) {
				add(key.Line, f, "want a list: [program, arg, ...], got %s", nodeKind(val))
				return
			}
			for _, item := range val.Content {
				if item.Kind == yaml.SequenceNode && len(item.Content) == 0 {
					add(item.Line, f, "an empty group; a group is a list of arguments left out together, such as [--degree, \"{degree?}\"]")
					return
				}
				for _, c := range append([]*yaml.Node{item}, item.Content...) {
					if c != item && c.Kind == yaml.SequenceNode {
						add(c.Line, f, "groups do not nest: a group is a list of strings, such as [--degree, \"{degree?}\"]")
						return
					}
					if c.Kind == yaml.MappingNode || c.Kind == yaml.ScalarNode && isNull(c) {
						add(c.Line, f, "want an argument (a string) or a group of them (a list, such as [--degree, \"{degree?}\"]), got %s", nodeKind(c))
						return
					}
				}
			}
			decodeField(val, &o.Command, "a list of strings: [program, arg, ...]", f, add)
		case "function":
			decodeField(val, &o.Function, "the name of a built-in function", f, add)
		case "timeout":
			decodeDuration(key, val, f, &o.Timeout, add)
		case "env":
			if val.Kind == yaml.MappingNode { // name the variable, not "got a mapping"
				for i := 0; i+1 < len(val.Content); i += 2 {
					if v := resolveAlias(val.Content[i+1]); v.Kind != yaml.ScalarNode {
						add(v.Line, f, "%s: want a value such as \"1\", got %s", val.Content[i].Value, nodeKind(v))
						return
					}
				}
			}
			decodeField(val, &o.Env, "a mapping of variable names to values, such as {OMP_NUM_THREADS: \"1\"}", f, add)
		case "dir":
			decodeField(val, &o.Dir, "a directory", f, add)
		case "logs":
			decodeField(val, &o.Logs, "a directory", f, add)
		}
	})
}

// decodeDuration reads a duration field (the study's timeout, the
// objective's).
func decodeDuration(key, val *yaml.Node, f string, d *Duration, add func(line int, field, format string, args ...any)) {
	if val.Kind != yaml.ScalarNode {
		add(key.Line, f, "want a duration like 90s, 10m or 1h30m, got %s", nodeKind(val))
	} else if err := d.parse(val.Value); err != nil {
		add(key.Line, f, "%s", strings.TrimPrefix(err.Error(), "timeout: "))
	}
}

// decodeField decodes n into v, or reports that field wants something else.
func decodeField(n *yaml.Node, v any, want, field string, add func(line int, field, format string, args ...any)) {
	if err := n.Decode(v); err != nil {
		add(n.Line, field, "want %s, got %s", want, nodeKind(n))
	}
}

// decodeWhole is decodeField for an integer field (an int or a uint64):
// the YAML decoder would truncate a float (trials: 2.5 became 2) where the
// file has a mistake, and converts one just out of range (2⁶³ into an int,
// 2⁶⁴ into a uint64) to a wrong value without an error.
func decodeWhole(n *yaml.Node, v any, want, field string, add func(line int, field, format string, args ...any)) {
	var f float64
	limit := math.Ldexp(1, 63)
	if _, ok := v.(*uint64); ok {
		limit = math.Ldexp(1, 64)
	}
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && n.Decode(&f) == nil && (f != math.Trunc(f) || math.Abs(f) >= limit) {
		add(n.Line, field, "want %s, got %s", want, nodeKind(n))
		return
	}
	decodeField(n, v, want, field, add)
}

// expandMerges replaces each YAML merge key ("<<: *defaults", or a list
// of them) by the fields of the mappings it names, in place, where the
// key stood: a field written in the mapping itself wins, and of the merged
// mappings the earlier wins, as YAML's merge rule says. The walkers below
// read fields one by one and would call "<<" an unknown field. A merge
// value that is not a mapping, or a list of them, is left as it is, and
// so reported.
func expandMerges(n *yaml.Node, done map[*yaml.Node]bool) {
	n = resolveAlias(n)
	if done[n] {
		return
	}
	done[n] = true
	for _, c := range n.Content {
		expandMerges(c, done)
	}
	if n.Kind != yaml.MappingNode {
		return
	}
	own := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !isMerge(k) {
			own[k.Value] = true
		}
	}
	var out []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		key, val := n.Content[i], resolveAlias(n.Content[i+1])
		sources := []*yaml.Node{val}
		if val.Kind == yaml.SequenceNode {
			sources = val.Content
		}
		if !isMerge(key) || slices.ContainsFunc(sources, func(m *yaml.Node) bool { return resolveAlias(m).Kind != yaml.MappingNode }) {
			out = append(out, key, n.Content[i+1])
			continue
		}
		for _, m := range sources {
			m = resolveAlias(m)
			for j := 0; j+1 < len(m.Content); j += 2 {
				if k := m.Content[j]; !own[k.Value] {
					own[k.Value] = true
					out = append(out, k, m.Content[j+1])
				}
			}
		}
	}
	n.Content = out
}

// memoryKey reports whether n is the mapping {memory: null}, which is
// how YAML reads a storage URL memory: written on a line of its own.
func memoryKey(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "memory" && isNull(resolveAlias(n.Content[1]))
}

func isMerge(key *yaml.Node) bool { return key.Kind == yaml.ScalarNode && key.ShortTag() == "!!merge" }

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" }

func nodeKind(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case isNull(n):
		return "nothing"
	case n.Kind == yaml.ScalarNode:
		return strconv.Quote(n.Value)
	}
	return "a document"
}

// yamlError rewords the decoder's type errors ("cannot unmarshal !!str
// `abc` into int") so they name the field; its line numbers are kept.
func yamlError(err error) error {
	if errors.Is(err, bytes.ErrTooLarge) {
		return err
	}
	msg := err.Error()
	if strings.Contains(msg, "EOF") && !strings.Contains(msg, "line") {
		return errors.New("the study file is empty")
	}
	return errors.New(strings.TrimPrefix(msg, "yaml: "))
}
