package server

import (
	"bytes"
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/boaopt/boa/storage"
)

// apiError is a failure with the status it answers.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return errorf(http.StatusBadRequest, format, args...)
}

// classify maps an error from the storage or a study to a status: the
// storage's sentinels are the client's doing; anything else is ours.
func classify(err error) *apiError {
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return errorf(http.StatusNotFound, "%v", err)
	case errors.Is(err, storage.ErrFinished), errors.Is(err, storage.ErrExists), errors.Is(err, storage.ErrNotRunning):
		return errorf(http.StatusConflict, "%v", err)
	case errors.Is(err, context.Canceled):
		// The client went away; nobody reads the answer.
		return errorf(http.StatusServiceUnavailable, "request cancelled: %v", err)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, storage.ErrLocked):
		return errorf(http.StatusServiceUnavailable, "the storage did not answer in time, try again: %v", err)
	case unreachable(err):
		// A 503, which clients retry: a worker must ride out a database
		// restart as it rides out a server restart, keeping its result.
		return errorf(http.StatusServiceUnavailable, "the storage is unavailable, try again: %v", err)
	}
	return errorf(http.StatusInternalServerError, "%v", err)
}

// unreachable reports whether err says the database could not be reached
// or dropped the connection (a PostgreSQL restart or failover), as
// opposed to a failing query: the connection refused or reset, or
// PostgreSQL's connection exceptions (SQLSTATE class 08), operator
// intervention (57P01-57P03: shutting down, starting up), too many
// connections (53300), a request the driver did not send, and SQLite
// busy past its busy timeout.
func unreachable(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	// The driver's errors, without importing it: one that was certainly
	// not sent (pgx's "conn closed" on a dropped session), and what
	// PostgreSQL itself says (*pgconn.PgError).
	var unsent interface{ SafeToRetry() bool }
	if errors.As(err, &unsent) && unsent.SafeToRetry() {
		return true
	}
	// SQLite busy for longer than its busy timeout: with immediate
	// transactions that is at BEGIN, before any write.
	var lite interface{ Code() int }
	if errors.As(err, &lite) && lite.Code()&0xff == 5 { // SQLITE_BUSY
		return true
	}
	var pg interface{ SQLState() string }
	if errors.As(err, &pg) {
		code := pg.SQLState()
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	return false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // a write error means the client is gone
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// readBody reads the whole body within the size limit. An empty body is
// returned as nil.
func (s *server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, errorf(http.StatusRequestEntityTooLarge, "request body is larger than %d bytes", s.opts.MaxBody)
	case err != nil:
		return nil, badRequest("reading the request body: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	return data, nil
}

// decode reads a JSON object body into v, refusing unknown fields and
// trailing data. An empty body leaves v untouched when optional is set.
func (s *server) decode(w http.ResponseWriter, r *http.Request, v any, optional bool) error {
	data, err := s.readBody(w, r)
	if err != nil {
		return err
	}
	if data == nil {
		if optional {
			return nil
		}
		return badRequest("the request body is empty: want a JSON object")
	}
	return decodeJSON(data, v)
}

func decodeJSON(data []byte, v any) error {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || trimmed[0] != '{' {
		return badRequest("the request body must be a JSON object {...}")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("%s", describeJSON(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("unexpected data after the JSON object")
	}
	return nil
}

// describeJSON rewords encoding/json's errors for a person reading them
// in a terminal.
func describeJSON(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("want a JSON object, got %s", typ.Value)
		}
		return fmt.Sprintf("field %q: want %s, got %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "malformed JSON: the body ends before the object does"
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if strings.HasPrefix(msg, "unknown field") {
		return msg + " (see docs/http-api.md for the fields of this request)"
	}
	return "malformed JSON: " + msg
}

func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64", "int32":
		return "an integer"
	case "float64":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "map", "struct":
		return "an object"
	case "slice":
		return "a list"
	}
	return goKind
}

// number reads a JSON value that must be a finite number. JSON has no NaN
// or Infinity; clients that serialise them as strings are told so.
func number(field string, raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, badRequest("%s: missing; want a finite number", field)
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return 0, badRequest("%s: %q is not a finite number; NaN and Infinity cannot be recorded "+
				"(tell {\"state\":\"FAILED\",\"reason\":\"...\"} for an evaluation that produced one)", field, s)
		}
		return 0, badRequest("%s: want a number, got the string %s (write numbers without quotes)", field, clip(raw))
	case 't', 'f', '{', '[':
		return 0, badRequest("%s: want a number, got %s", field, clip(raw))
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return 0, badRequest("%s: %s is out of the range of a 64-bit float", field, clip(raw))
	}
	return f, nil
}

// metric reads a metric's value: a number, or the string "NaN", "+Inf"
// or "-Inf" (JSON has neither), which a constraint judges: a constraint
// on a metric reported as NaN does not hold.
func metric(field string, raw json.RawMessage) (float64, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return f, nil
		}
	}
	return number(field, raw)
}

// clip shortens a value quoted in an error message.
func clip(b []byte) string {
	const max = 40
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// pathID reads the {id} of a trial route.
func pathID(r *http.Request) (int64, error) {
	s := r.PathValue("id")
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, badRequest("trial id %q: want a positive integer (the \"id\" that ask returned)", s)
	}
	return id, nil
}

// text checks a short identifier from a client (a worker or metric name):
// the SQL back-ends cannot keep NUL characters.
func text(field, s string, max int) error {
	if len(s) > max {
		return badRequest("%s: longer than %d bytes", field, max)
	}
	if strings.ContainsRune(s, 0) {
		return badRequest("%s: contains a NUL character", field)
	}
	return nil
}
