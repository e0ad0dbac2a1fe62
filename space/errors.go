package space

import (
	"errors"
	"fmt"
)

// ParamError reports a problem with one parameter of a space, or with the
// value of one parameter in an assignment. New, Validate, Encode and the
// YAML/JSON decoders return one ParamError per problem, joined with
// errors.Join; use errors.As to inspect the first.
type ParamError struct {
	Param string // parameter name; empty for problems of the space as a whole
	Field string // field of the declaration at fault ("low", "when", ...), if any
	Line  int    // line in the study file, 0 when unknown
	Msg   string // what is wrong and, where possible, how to fix it
}

// Error formats the problem as `space.NAME (line L): message`.
func (e *ParamError) Error() string {
	s := "space"
	if e.Param != "" {
		s += "." + e.Param
	}
	if e.Line > 0 {
		s += fmt.Sprintf(" (line %d)", e.Line)
	}
	return s + ": " + e.Msg
}

func perr(param, field, format string, args ...any) *ParamError {
	return &ParamError{Param: param, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func joinErrs(errs []*ParamError) error {
	if len(errs) == 0 {
		return nil
	}
	if len(errs) == 1 {
		return errs[0]
	}
	es := make([]error, len(errs))
	for i, e := range errs {
		es[i] = e
	}
	return errors.Join(es...)
}
