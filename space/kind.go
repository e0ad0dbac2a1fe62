package space

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Kind is the type of a parameter.
type Kind int

// The parameter kinds.
const (
	Float       Kind = iota // real number in [Low, High]
	Int                     // integer in [Low, High]
	Ordinal                 // one of Values, which are ordered
	Categorical             // one of Choices, which are unordered
	Bool                    // false or true, a categorical with two choices
)

var kindNames = [...]string{"float", "int", "ordinal", "categorical", "bool"}

// String returns the name used in study files: "float", "int", "ordinal",
// "categorical" or "bool".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind parses a kind name as written in study files.
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if s == n {
			return Kind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown type %q; want one of %s", s, strings.Join(kindNames[:], ", "))
}

// Format returns the canonical string of a parameter value, used by
// conditions, keys and logs: 3 → "3", 3.0 → "3", 0.5 → "0.5", true → "true",
// "rbf" → "rbf". Floats use the shortest representation that reads back to the
// same value.
func Format(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	case int:
		return strconv.Itoa(v)
	case int8:
		return strconv.FormatInt(int64(v), 10)
	case int16:
		return strconv.FormatInt(int64(v), 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case uint:
		return strconv.FormatUint(uint64(v), 10)
	case uint8:
		return strconv.FormatUint(uint64(v), 10)
	case uint16:
		return strconv.FormatUint(uint64(v), 10)
	case uint32:
		return strconv.FormatUint(uint64(v), 10)
	case uint64:
		return strconv.FormatUint(v, 10)
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return Format(f)
		}
		return v.String()
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// toFloat converts any Go number to float64.
func toFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case float32:
		return float64(v), true
	case int:
		return float64(v), true
	case int8:
		return float64(v), true
	case int16:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint8:
		return float64(v), true
	case uint16:
		return float64(v), true
	case uint32:
		return float64(v), true
	case uint64:
		return float64(v), true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}
