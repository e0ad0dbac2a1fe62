package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// ParseJSON reads and validates a study file written as JSON (the body of
// POST /api/v1/studies). Unknown fields are errors.
func ParseJSON(data []byte) (*Study, error) {
	var s Study
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("study: %w", jsonError(err))
	}
	if dec.More() {
		return nil, errors.New("study: trailing data after the JSON object")
	}
	return &s, s.Validate()
}

// jsonError rewords the decoder's type errors ("json: cannot unmarshal
// string into Go struct field Study.trials of type int") as the YAML
// side words them: the field, what it wants, what it got.
func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" || te.Type == nil {
		return err
	}
	want := "a " + te.Type.String()
	switch k := te.Type.Kind(); {
	case k >= reflect.Int && k <= reflect.Int64:
		want = "an integer"
	case k >= reflect.Uint && k <= reflect.Uint64:
		want = "an integer ≥ 0"
	case k == reflect.Float32 || k == reflect.Float64:
		want = "a number"
	case k == reflect.String:
		want = "a string"
	case k == reflect.Bool:
		want = "true or false"
	case k == reflect.Slice:
		want = "a list"
	case k == reflect.Map || k == reflect.Struct:
		want = "an object"
	}
	got, ok := strings.CutPrefix(te.Value, "number ")
	if !ok {
		got = map[string]string{"string": "a string", "number": "a number", "bool": "a boolean",
			"array": "a list", "object": "an object"}[te.Value]
	}
	if got == "" {
		got = te.Value
	}
	return fmt.Errorf("%s: want %s, got %s", te.Field, want, got)
}
