package space

import (
	"encoding/json"
	"math"
	"strconv"
)

// Text returns the text of value v of parameter name as it leaves boa:
// in a command's arguments, BOA_PARAMS, the HTTP API and exports. The
// parameter's kind decides it, not v's Go type, because a value does not
// say what it is: Decode gives an Ordinal's values as float64 too, and
// JSON (encoding/json, the API's json.Number) writes the float 1.0 as 1.
// A script that hands a Float parameter to a library must get a float
// (scikit-learn reads max_features=1 as one feature and 1.0 as all of
// them), and one that hands a step count to int() must get digits. So:
//
//   - Float: a float literal that Python's float(), json and Go read back
//     as the same float64: 0.5, 1e-05, 1.0 (a whole value gets ".0";
//     below 1e21 with its digits, 1000000.0, as json writes them), 1e+21;
//   - Int: digits;
//   - Ordinal: digits when every value of the parameter is whole (widths,
//     step counts: 1000000, never 1e+06), else floats as for Float;
//   - Categorical and Bool: Format (the choice, true or false).
//
// Format stays the canonical string of conditions and keys, in which 1 and
// 1.0 are one value. A name that is not a parameter, or a value of a type
// its kind does not have, is written with Format.
func (s *Space) Text(name string, v any) string {
	i, ok := s.index[name]
	if !ok {
		return Format(v)
	}
	p := &s.params[i]
	switch p.Kind {
	case Float, Int, Ordinal:
		f, ok := toFloat(v)
		if !ok {
			return Format(v)
		}
		if p.Kind == Int || p.Kind == Ordinal && s.wholeOrdinal(i) {
			if n, ok := v.(json.Number); ok {
				// Beyond 2⁵³ the digits are exact only as given.
				if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
					return strconv.FormatInt(i, 10)
				}
			}
			if f == math.Trunc(f) {
				return strconv.FormatFloat(f, 'f', -1, 64)
			}
		}
		return FloatText(f)
	}
	return Format(v)
}

// wholeOrdinal reports whether every value of Ordinal parameter i is a
// whole number: then it is an integer parameter, written with digits.
func (s *Space) wholeOrdinal(i int) bool {
	for _, v := range s.params[i].Values {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}

// FloatText writes f so that it reads back as a float, and as f: the
// shortest representation that does, with ".0" added to a whole number
// (1.0, 1000000.0) and an exponent from 1e21 on, as encoding/json writes
// large numbers (1e+21). It is the text of a Float parameter's value
// (Space.Text); NaN and infinities, which no parameter takes, are written
// as Format writes them.
func FloatText(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Format(f)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64) + ".0"
	}
	return strconv.FormatFloat(f, 'g', -1, 64) // has a '.' or an exponent
}

// Export returns a copy of a in the form in which a trial's values leave
// boa: each number of a parameter of the space becomes a json.Number
// holding its Text, which encoding/json writes as it is (1.0 for a Float
// at 1, where a float64 would be written 1) and runner writes into a
// command's arguments as it is. Strings and booleans, and the values of
// names that are no parameter, are kept. a may come from Decode or
// Canonical, or from JSON (json.Number or float64 values), such as the
// params of a trial stored before floats were written this way.
func (s *Space) Export(a map[string]any) Assignment {
	if a == nil {
		return nil
	}
	out := make(Assignment, len(a))
	for name, v := range a {
		out[name] = v
		i, ok := s.index[name]
		if !ok {
			continue
		}
		if k := s.params[i].Kind; k != Float && k != Int && k != Ordinal {
			continue
		}
		if f, ok := toFloat(v); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			out[name] = json.Number(s.Text(name, v))
		}
	}
	return out
}

// MarshalParams is the JSON object of a's values in their exported form
// (Export), keys sorted: the params of a trial as storage keeps them, the
// HTTP API answers them and BOA_PARAMS carries them.
func (s *Space) MarshalParams(a map[string]any) ([]byte, error) {
	if a == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(s.Export(a))
}
