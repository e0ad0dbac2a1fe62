package config

import (
	"errors"
	"fmt"

	"github.com/boaopt/boa/space"
)

// fieldError is one problem of a study file: the field at fault ("trials",
// "objective.env") and its line, 0 when unknown (a missing field, JSON).
type fieldError struct {
	line  int
	field string
	msg   string
}

// Error formats the problem as `line L: FIELD: message`, or `FIELD:
// message` without a line.
func (e *fieldError) Error() string {
	s := e.msg
	if e.field != "" {
		s = e.field + ": " + s
	}
	if e.line > 0 {
		s = fmt.Sprintf("line %d: %s", e.line, s)
	}
	return s
}

// splitErrors returns the errors that err joins, or err alone.
func splitErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// errorLine is the line of a study file error, 0 when unknown.
func errorLine(err error) int {
	var fe *fieldError
	var pe *space.ParamError
	switch {
	case errors.As(err, &fe):
		return fe.line
	case errors.As(err, &pe):
		return pe.Line
	}
	return 0
}
