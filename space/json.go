package space

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// UnmarshalJSON reads the JSON form of the `space:` mapping (the body of
// POST /api/v1/studies, DESIGN.md §2.4): an object of parameter name →
// {"type", "low", "high", "log", "values", "choices", "when"}. Declaration
// order is the order of the keys. The rules are those of UnmarshalYAML;
// categorical choices and condition values may be any JSON scalars and are
// kept as strings (see Format).
func (s *Space) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return &ParamError{Msg: "want a JSON object of parameter name to {\"type\": ...}"}
	}
	var raws []*rawParam
	var errs []*ParamError
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return &ParamError{Line: lineAt(dec.InputOffset()), Msg: "malformed JSON: " + err.Error()}
		}
		name := tok.(string) // object keys are always strings
		line := lineAt(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return &ParamError{Param: name, Line: line, Msg: "malformed JSON: " + err.Error()}
		}
		if seen[name] {
			errs = append(errs, &ParamError{Param: name, Line: line, Msg: "declared twice"})
			continue
		}
		seen[name] = true
		r := newRaw(name, line)
		errs = append(errs, r.readJSON(raw)...)
		raws = append(raws, r)
	}
	if _, err := dec.Token(); err != nil {
		return &ParamError{Line: lineAt(dec.InputOffset()), Msg: "malformed JSON: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &ParamError{Line: lineAt(dec.InputOffset()), Msg: "unexpected data after the space object"}
	}
	sp, err := buildRaw(raws, errs)
	if err != nil {
		return err
	}
	*s = *sp
	return nil
}

// readJSON reads the declaration object of one parameter.
func (r *rawParam) readJSON(data []byte) []*ParamError {
	var errs []*ParamError
	add := func(field, format string, args ...any) {
		errs = append(errs, &ParamError{Param: r.name, Field: field, Line: r.line, Msg: fmt.Sprintf(format, args...)})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil || fields == nil {
		add("", "want an object such as {\"type\": \"float\", \"low\": 0, \"high\": 1}, got %s", data)
		r.unread = true
		return errs
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, f := range keys {
		v := fields[f]
		if !slices.Contains(knownFields, f) {
			add("", "unknown field %q; the fields are "+strings.Join(knownFields, ", "), f)
			continue
		}
		r.present[f] = true
		var msg string
		switch f {
		case "type":
			if json.Unmarshal(v, &r.kind) != nil {
				msg = fmt.Sprintf("type must be a string such as \"float\", got %s", v)
				r.unread = true
			}
		case "low":
			r.p.Low, msg = jsonNumber(v, "low")
		case "high":
			r.p.High, msg = jsonNumber(v, "high")
		case "input_noise":
			r.p.InputNoise, msg = jsonNumber(v, "input_noise")
		case "log":
			if isNull(v) || json.Unmarshal(v, &r.p.Log) != nil {
				msg = fmt.Sprintf("log must be true or false, got %s", v)
			}
		case "values":
			var xs []json.RawMessage
			if json.Unmarshal(v, &xs) != nil || xs == nil {
				msg = fmt.Sprintf("values must be a list of numbers such as [16, 32, 64], got %s", v)
				break
			}
			r.p.Values = make([]float64, len(xs))
			for i, x := range xs {
				if r.p.Values[i], msg = jsonNumber(x, fmt.Sprintf("values[%d]", i)); msg != "" {
					break
				}
			}
		case "choices":
			r.p.Choices, msg = jsonScalars(v, "choices")
		case "when":
			var w map[string]json.RawMessage
			if json.Unmarshal(v, &w) != nil || w == nil {
				msg = fmt.Sprintf("when must be an object of parent to values such as {\"kernel\": [\"poly\"]}, got %s", v)
				break
			}
			r.p.When = make(map[string][]string, len(w))
			for parent, vals := range w {
				var vs []string
				if vs, msg = jsonScalars(vals, "when."+parent); msg != "" {
					break // not kept: "lists no values" would report it again
				}
				r.p.When[parent] = vs
			}
		}
		if msg != "" {
			add(f, "%s", msg)
		}
	}
	return errs
}

func jsonNumber(v json.RawMessage, field string) (float64, string) {
	var f float64
	if isNull(v) || json.Unmarshal(v, &f) != nil {
		return 0, fmt.Sprintf("%s must be a number, got %s", field, v)
	}
	return f, ""
}

// isNull reports whether v is JSON null, which encoding/json decodes into a
// number or a bool as "no change": "low": null would silently be 0.
func isNull(v json.RawMessage) bool { return string(bytes.TrimSpace(v)) == "null" }

// jsonScalars reads a list of scalars (or one scalar) as strings.
func jsonScalars(v json.RawMessage, field string) ([]string, string) {
	var xs []any
	if err := json.Unmarshal(v, &xs); err != nil {
		var x any
		if json.Unmarshal(v, &x) != nil {
			return nil, fmt.Sprintf("%s must be a list such as [\"a\", \"b\"], got %s", field, v)
		}
		xs = []any{x}
	}
	if xs == nil {
		return nil, fmt.Sprintf("%s must be a list such as [\"a\", \"b\"], got %s", field, v)
	}
	out := make([]string, len(xs))
	for i, x := range xs {
		switch x.(type) {
		case string, float64, bool:
			out[i] = Format(x)
		default:
			return nil, fmt.Sprintf("%s[%d] must be a single value, got %s", field, i, jsonText(x))
		}
	}
	return out, ""
}

func jsonText(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}

// jsonParam is the JSON form of one parameter.
type jsonParam struct {
	Type    string              `json:"type"`
	Low     *float64            `json:"low,omitempty"`
	High    *float64            `json:"high,omitempty"`
	Log     bool                `json:"log,omitempty"`
	Noise   float64             `json:"input_noise,omitempty"`
	Values  []float64           `json:"values,omitempty"`
	Choices []string            `json:"choices,omitempty"`
	When    map[string][]string `json:"when,omitempty"`
}

// MarshalJSON writes the space as a JSON object in declaration order, the
// form UnmarshalJSON reads.
func (s *Space) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range s.params {
		if i > 0 {
			b.WriteByte(',')
		}
		name, err := json.Marshal(p.Name)
		if err != nil {
			return nil, err
		}
		b.Write(name)
		b.WriteByte(':')
		jp := jsonParam{Type: p.Kind.String(), Log: p.Log, Noise: p.InputNoise, Values: p.Values, Choices: p.Choices, When: p.When}
		if p.Kind == Float || p.Kind == Int {
			lo, hi := p.Low, p.High
			jp.Low, jp.High = &lo, &hi
		}
		v, err := json.Marshal(jp)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
