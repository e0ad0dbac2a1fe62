package space

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Assignment maps parameter names to values: float64 for Float and Ordinal,
// int for Int, string for Categorical and bool for Bool. Inactive conditional
// parameters are absent.
type Assignment map[string]any

// clamp01 maps a coordinate into [0,1]; NaN, which carries no position,
// becomes the centre.
func clamp01(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return 0.5
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// level returns the level of discrete parameter i at coordinate x.
func (s *Space) level(i int, x float64) int {
	x = clamp01(x)
	p := &s.params[i]
	L := s.levels[i]
	if p.Kind == Int && p.Log {
		w := math.Floor(math.Exp(s.ta[i]+x*(s.tb[i]-s.ta[i])) + 0.5)
		return int(min(max(w, p.Low), p.High) - p.Low)
	}
	return min(int(x*float64(L)), L-1)
}

// code returns the canonical coordinate of level k of discrete parameter i:
// the centre (k+½)/L of its cell, or for a log-scale Int the point
// (ln v − ta)/(tb − ta) of its value v, which lies inside its cell.
func (s *Space) code(i, k int) float64 {
	p := &s.params[i]
	if p.Kind == Int && p.Log {
		return (math.Log(p.Low+float64(k)) - s.ta[i]) / (s.tb[i] - s.ta[i])
	}
	return (float64(k) + 0.5) / float64(s.levels[i])
}

// floatValue decodes coordinate x of Float parameter i.
func (s *Space) floatValue(i int, x float64) float64 {
	p := &s.params[i]
	x = clamp01(x)
	switch x { // the ends exactly, whatever exp and log round to
	case 0:
		return p.Low
	case 1:
		return p.High
	}
	t := s.ta[i] + x*(s.tb[i]-s.ta[i])
	if p.Log {
		t = math.Exp(t)
	}
	return min(max(t, p.Low), p.High)
}

// value decodes coordinate x of parameter i.
func (s *Space) value(i int, x float64) any {
	if s.params[i].Kind == Float {
		return s.floatValue(i, x)
	}
	return s.params[i].levelValue(s.level(i, x))
}

// Active reports which parameters are active at the encoded point u: those
// without conditions, and those whose parents are all active and take one of
// the listed values. It panics if len(u) != Len().
func (s *Space) Active(u []float64) []bool {
	s.checkLen(u, "Active")
	act := make([]bool, len(u))
	for _, i := range s.topo {
		act[i] = s.activeAt(i, u, act, nil)
	}
	return act
}

// activeAt decides parameter i given the activity of its parents; present,
// when non-nil, marks which coordinates carry a value.
func (s *Space) activeAt(i int, u []float64, act, present []bool) bool {
	for _, c := range s.conds[i] {
		if !act[c.parent] || (present != nil && !present[c.parent]) || !c.allows(s.level(c.parent, u[c.parent])) {
			return false
		}
	}
	return true
}

// Decode maps an encoded point to an assignment of its active parameters,
// rounding discrete coordinates to legal values. Coordinates outside [0,1]
// are clamped and NaN is read as 0.5, so every u gives a valid assignment.
// It panics if len(u) != Len().
func (s *Space) Decode(u []float64) Assignment {
	act := s.Active(u)
	a := make(Assignment, len(u))
	for i, p := range s.params {
		if act[i] {
			a[p.Name] = s.value(i, u[i])
		}
	}
	return a
}

// Round snaps, in place, every discrete coordinate of u to the canonical
// code of its level, clamps Float coordinates to [0,1] (NaN becomes 0.5) and
// sets inactive coordinates to the placeholder 0.5, so that rounded points
// are equal exactly when they decode to the same assignment (up to Float
// rounding) and Round(Encode(a)) = Encode(a). Round is idempotent and does
// not change Decode(u). It panics if len(u) != Len().
func (s *Space) Round(u []float64) {
	act := s.Active(u)
	for i := range u {
		if !act[i] {
			u[i] = 0.5
		} else if s.params[i].Kind == Float {
			u[i] = clamp01(u[i])
		} else {
			u[i] = s.code(i, s.level(i, u[i]))
		}
	}
}

// Encode maps an assignment to a point of the unit cube. Float values map
// linearly, or linearly in ln v with Log; discrete values map to the canonical
// codes of their levels (see Round); inactive parameters, which must be
// absent, get the placeholder 0.5. Encode checks a as Validate does and
// returns the same errors.
//
// Log-scale Int parameters: the integer v owns the cell
// [ln(v−½), ln(v+½)) of [ln(low−½), ln(high+½)] rescaled to [0,1], and its
// canonical code is the position of ln v, so rounding is consistent with the
// log scale and every integer in range is reachable.
func (s *Space) Encode(a Assignment) ([]float64, error) {
	u := make([]float64, len(s.params))
	present := make([]bool, len(s.params))
	var errs []*ParamError
	for name := range a {
		if _, ok := s.index[name]; !ok {
			errs = append(errs, perr(name, "", "unknown parameter; the space has %s", strings.Join(s.Names(), ", ")))
		}
	}
	for i := range s.params {
		u[i] = 0.5
		v, ok := a[s.params[i].Name]
		if !ok {
			continue
		}
		x, err := s.encodeValue(i, v)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		u[i], present[i] = x, true
	}
	// Activity is decided only once all parents are known; an invalid parent
	// already has its error, so its children are not judged.
	act := make([]bool, len(u))
	bad := make([]bool, len(u))
	for _, e := range errs {
		if i, ok := s.index[e.Param]; ok {
			bad[i] = true
		}
	}
	for _, i := range s.topo {
		if bad[i] {
			continue // its own error is reported; "missing" would be noise
		}
		p := &s.params[i]
		skip := false
		for _, c := range s.conds[i] {
			skip = skip || bad[c.parent]
		}
		if skip {
			bad[i] = true
			continue
		}
		act[i] = s.activeAt(i, u, act, present)
		switch {
		case act[i] && !present[i]:
			errs = append(errs, perr(p.Name, "", "missing a value; it is active%s and must be %s", s.why(i, u), p.describe()))
		case !act[i] && present[i]:
			errs = append(errs, perr(p.Name, "", "has a value but is inactive (%s); leave it out", s.whyNot(i, u, act, present)))
			u[i] = 0.5
		}
	}
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(x, y *ParamError) int {
			return s.order(x.Param) - s.order(y.Param)
		})
		return nil, joinErrs(errs)
	}
	return u, nil
}

// order sorts errors by declaration, unknown names last.
func (s *Space) order(name string) int {
	if i, ok := s.index[name]; ok {
		return i
	}
	return len(s.params)
}

// why explains why conditional parameter i is active.
func (s *Space) why(i int, u []float64) string {
	if len(s.conds[i]) == 0 {
		return ""
	}
	parts := make([]string, len(s.conds[i]))
	for k, c := range s.conds[i] {
		parts[k] = s.params[c.parent].Name + " = " + Format(s.value(c.parent, u[c.parent]))
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// whyNot explains why conditional parameter i is inactive.
func (s *Space) whyNot(i int, u []float64, act, present []bool) string {
	for _, c := range s.conds[i] {
		par := s.params[c.parent]
		if !act[c.parent] || !present[c.parent] {
			return "its parent " + par.Name + " is inactive or missing"
		}
		if !c.allows(s.level(c.parent, u[c.parent])) {
			return fmt.Sprintf("it needs %s in [%s], got %s", par.Name,
				strings.Join(s.params[i].When[par.Name], ", "), Format(s.value(c.parent, u[c.parent])))
		}
	}
	return "conditions not met"
}

// Validate checks an assignment: every key names a parameter, every value has
// a usable type and is legal (in range, one of the choices, ...), every
// active parameter has a value and every inactive one has none. Numeric
// values may be any Go number (an Int value must be whole); Categorical
// values may be any scalar whose Format is a choice; Bool values may be bool
// or the strings "true" and "false".
func (s *Space) Validate(a Assignment) error {
	_, err := s.Encode(a)
	return err
}

// Canonical returns a copy of a, which must be valid, with every value in the
// canonical Go type of its kind (float64, int, string or bool). Float values
// are kept exactly.
func (s *Space) Canonical(a Assignment) (Assignment, error) {
	u, err := s.Encode(a)
	if err != nil {
		return nil, err
	}
	out := s.Decode(u)
	for name := range out {
		i := s.index[name]
		if s.params[i].Kind == Float {
			f, _ := toFloat(a[name])
			out[name] = f
		}
	}
	return out, nil
}

// encodeValue checks one value and returns its coordinate.
func (s *Space) encodeValue(i int, v any) (float64, *ParamError) {
	p := &s.params[i]
	bad := func(format string, args ...any) (float64, *ParamError) {
		return 0, perr(p.Name, "", format, args...)
	}
	switch p.Kind {
	case Float, Int:
		f, ok := toFloat(v)
		if !ok {
			return bad("want a number, got %s (%T)", quoteValue(v), v)
		}
		if math.IsNaN(f) || f < p.Low || f > p.High {
			return bad("value %s is outside [%s, %s]", Format(f), Format(p.Low), Format(p.High))
		}
		if p.Kind == Int {
			if f != math.Trunc(f) {
				return bad("want a whole number, got %s", Format(f))
			}
			return s.code(i, int(f-p.Low)), nil
		}
		t := f
		if p.Log {
			t = math.Log(f)
		}
		return clamp01((t - s.ta[i]) / (s.tb[i] - s.ta[i])), nil
	case Ordinal:
		f, ok := toFloat(v)
		if !ok {
			return bad("want a number, got %s (%T)", quoteValue(v), v)
		}
		k, ok := p.ordinalIndex(f)
		if !ok {
			return bad("value %s is not %s", Format(f), p.describe())
		}
		return s.code(i, k), nil
	case Categorical:
		k := slices.Index(p.Choices, Format(v))
		if k < 0 {
			return bad("value %s is not %s", quoteValue(v), p.describe())
		}
		return s.code(i, k), nil
	case Bool:
		k := -1
		switch v {
		case false, "false":
			k = 0
		case true, "true":
			k = 1
		}
		if k < 0 {
			return bad("want true or false, got %s (%T)", quoteValue(v), v)
		}
		return s.code(i, k), nil
	}
	return bad("unknown kind %d", int(p.Kind))
}

func quoteValue(v any) string {
	if str, ok := v.(string); ok {
		return fmt.Sprintf("%q", str)
	}
	return Format(v)
}
