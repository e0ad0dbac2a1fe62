package space

import (
	"fmt"
	"slices"
	"strings"
)

// rawParam is one parameter as read from a study file, before validation:
// the fields present, and their lines for error messages.
type rawParam struct {
	name    string
	line    int            // line of the parameter's name, 0 if unknown
	lines   map[string]int // field → line
	present map[string]bool
	kind    string
	p       Param
	// unread: the declaration or its type could not be read, which is
	// reported already; the parameter is not checked further.
	unread bool
}

func newRaw(name string, line int) *rawParam {
	return &rawParam{name: name, line: line, lines: map[string]int{}, present: map[string]bool{}, p: Param{Name: name}}
}

var fieldsFor = map[Kind][]string{
	Float:       {"type", "low", "high", "log", "input_noise", "when"},
	Int:         {"type", "low", "high", "log", "when"},
	Ordinal:     {"type", "values", "when"},
	Categorical: {"type", "choices", "when"},
	Bool:        {"type", "when"},
}

var knownFields = []string{"type", "low", "high", "log", "input_noise", "values", "choices", "when"}

// resolve checks the fields present against the type and returns the Param.
func (r *rawParam) resolve() (Param, []*ParamError) {
	var errs []*ParamError
	add := func(field, format string, args ...any) {
		errs = append(errs, &ParamError{Param: r.name, Field: field, Line: r.lineOf(field), Msg: fmt.Sprintf(format, args...)})
	}
	// Until the type is read the kind is unknown, not Float: a condition
	// on this parameter must not be refused as one on a float.
	r.p.Kind = -1
	if r.unread {
		return r.p, nil
	}
	if !r.present["type"] {
		add("", "missing type; want one of float, int, ordinal, categorical, bool")
		return r.p, errs
	}
	k, err := ParseKind(r.kind)
	if err != nil {
		add("type", "%v", err)
		return r.p, errs
	}
	r.p.Kind = k
	allowed := fieldsFor[k]
	for _, f := range knownFields {
		if r.present[f] && !slices.Contains(allowed, f) {
			add(f, "%s is not a field of a %s parameter; its fields are %s", f, k, strings.Join(allowed, ", "))
		}
	}
	switch k {
	case Float, Int:
		for _, f := range []string{"low", "high"} {
			if !r.present[f] {
				add("", "a %s parameter needs low and high; %s is missing", k, f)
			}
		}
	case Ordinal:
		if !r.present["values"] {
			add("", "an ordinal parameter needs values, a list of numbers in increasing order")
		}
	case Categorical:
		if !r.present["choices"] {
			add("", "a categorical parameter needs choices, a list of values")
		}
	}
	return r.p, errs
}

func (r *rawParam) lineOf(field string) int {
	if l, ok := r.lines[field]; ok && field != "" {
		return l
	}
	return r.line
}

// buildRaw validates parsed parameters and builds the space, attaching
// lines to the errors.
func buildRaw(raws []*rawParam, errs []*ParamError) (*Space, error) {
	params := make([]Param, len(raws))
	broken := make([]bool, len(raws))
	byName := map[string]*rawParam{}
	for _, e := range errs {
		for i, r := range raws {
			broken[i] = broken[i] || r.name == e.Param
		}
	}
	for i, r := range raws {
		p, pe := r.resolve()
		errs = append(errs, pe...)
		params[i] = p
		broken[i] = broken[i] || len(pe) > 0
		byName[r.name] = r
	}
	s, be := build(params, broken)
	for _, e := range be {
		if r, ok := byName[e.Param]; ok && e.Line == 0 {
			e.Line = r.lineOf(e.Field)
		}
	}
	errs = append(errs, be...)
	if len(errs) > 0 {
		// Report in file order, which is how a person fixes them.
		slices.SortStableFunc(errs, func(a, b *ParamError) int { return a.Line - b.Line })
		return nil, joinErrs(errs)
	}
	return s, nil
}
