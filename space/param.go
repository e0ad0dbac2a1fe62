package space

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Param declares one parameter of a search space.
type Param struct {
	Name      string
	Kind      Kind
	Low, High float64   // Float and Int: inclusive bounds
	Log       bool      // Float and Int: search on a log scale (needs Low ≥ the smallest normal float64; Int: High ≤ 1e13)
	Values    []float64 // Ordinal: legal values, strictly increasing
	Choices   []string  // Categorical: legal values (Bool has implicit choices false, true)
	// InputNoise (Float, linear scale) is the standard deviation, in the
	// parameter's units, of the noise with which a value is applied: a
	// machining tolerance, a dosage, a knob; the trial runs at x + ε,
	// ε ~ N(0, InputNoise²), not at the x asked for [002 §3.1, Eq. 3.2].
	// 0: applied exactly. gpbo models it with a UTGP (package uncertain).
	InputNoise float64

	// When makes the parameter conditional: it is active iff, for every
	// parent named in the map, the parent is active and its value (written
	// with Format) is in the list. Parents must be discrete (not Float).
	When map[string][]string
}

// maxIntBound bounds Int parameters so that every integer and every cell
// centre (k+0.5)/L is exact in float64.
const maxIntBound = 1e15

// maxLogIntBound bounds log-scale Int parameters more tightly: the cell of v
// is about 1/v wide in ln v, and above ~1e14 that is below the resolution
// of float64 near ln v ≈ 33, so neighbouring integers would share a code
// and Decode(Encode(v)) would not give v back. 1e13 leaves a margin of 10.
const maxLogIntBound = 1e13

// clone returns a deep copy of p.
func (p Param) clone() Param {
	p.Values = slices.Clone(p.Values)
	p.Choices = slices.Clone(p.Choices)
	if p.When != nil {
		w := make(map[string][]string, len(p.When))
		for k, v := range p.When {
			w[k] = slices.Clone(v)
		}
		p.When = w
	}
	return p
}

// numLevels returns the number of legal values of a valid discrete parameter,
// 0 for Float.
func (p *Param) numLevels() int {
	switch p.Kind {
	case Int:
		return int(p.High-p.Low) + 1
	case Ordinal:
		return len(p.Values)
	case Categorical:
		return len(p.Choices)
	case Bool:
		return 2
	}
	return 0
}

// levelValue returns the Assignment value of level k of a discrete parameter.
func (p *Param) levelValue(k int) any {
	switch p.Kind {
	case Int:
		return int(p.Low) + k
	case Ordinal:
		return p.Values[k]
	case Categorical:
		return p.Choices[k]
	case Bool:
		return k == 1
	}
	panic("space: levelValue of a continuous parameter")
}

// parseLevel returns the level of a discrete parameter written as a string
// (as in conditions), or false if the parameter can never take it.
func (p *Param) parseLevel(s string) (int, bool) {
	switch p.Kind {
	case Int:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v != math.Trunc(v) || v < p.Low || v > p.High {
			return 0, false
		}
		return int(v - p.Low), true
	case Ordinal:
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return 0, false
		}
		return p.ordinalIndex(v)
	case Categorical:
		i := slices.Index(p.Choices, s)
		return i, i >= 0
	case Bool:
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "false":
			return 0, true
		case "true":
			return 1, true
		}
	}
	return 0, false
}

// ordinalIndex finds v among the ordinal values, allowing for the rounding
// of values that went through text or arithmetic.
func (p *Param) ordinalIndex(v float64) (int, bool) {
	i, found := slices.BinarySearch(p.Values, v)
	if found {
		return i, true
	}
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(p.Values) && math.Abs(p.Values[j]-v) <= 1e-12*math.Max(1, math.Abs(v)) {
			return j, true
		}
	}
	return 0, false
}

// describe lists the legal values of a discrete parameter for messages.
func (p *Param) describe() string {
	switch p.Kind {
	case Int:
		return "an integer in [" + Format(p.Low) + ", " + Format(p.High) + "]"
	case Ordinal:
		s := make([]string, len(p.Values))
		for i, v := range p.Values {
			s[i] = Format(v)
		}
		return "one of " + strings.Join(s, ", ")
	case Categorical:
		return "one of " + strings.Join(p.Choices, ", ")
	case Bool:
		return "true or false"
	}
	return "a number in [" + Format(p.Low) + ", " + Format(p.High) + "]"
}

// check validates the declaration of p, apart from its conditions.
func (p *Param) check() []*ParamError {
	var errs []*ParamError
	add := func(field, format string, args ...any) {
		errs = append(errs, perr(p.Name, field, format, args...))
	}
	numeric := p.Kind == Float || p.Kind == Int
	if p.Kind < Float || p.Kind > Bool {
		add("type", "unknown kind %d", int(p.Kind))
		return errs
	}
	if !numeric {
		if p.Low != 0 || p.High != 0 {
			add("low", "low and high are only for float and int parameters, not %s", p.Kind)
		}
		if p.Log {
			add("log", "log is only for float and int parameters, not %s", p.Kind)
		}
	}
	if p.Kind != Ordinal && p.Values != nil {
		add("values", "values is only for ordinal parameters, not %s", p.Kind)
	}
	if p.Kind != Categorical && p.Choices != nil {
		add("choices", "choices is only for categorical parameters, not %s", p.Kind)
	}
	switch {
	case p.InputNoise == 0:
	case p.Kind != Float:
		add("input_noise", "input_noise is only for float parameters, not %s: a %s value is applied as it is", p.Kind, p.Kind)
	case !(p.InputNoise > 0 && p.InputNoise < math.Inf(1)):
		add("input_noise", "input_noise must be a finite standard deviation > 0, got %v", p.InputNoise)
	case p.Log:
		add("input_noise", "input_noise is for a linear float: on a log scale the noise would depend on the value; declare the parameter without log: true")
	case len(p.When) > 0:
		add("input_noise", "input_noise on a conditional parameter is not supported: the models of noisy inputs assume the parameter is always applied")
	case p.InputNoise >= p.High-p.Low:
		add("input_noise", "input_noise %s is as wide as the range [%s, %s]: the value asked for would say nothing of the one applied", Format(p.InputNoise), Format(p.Low), Format(p.High))
	}
	switch p.Kind {
	case Float, Int:
		errs = append(errs, p.checkBounds()...)
	case Ordinal:
		if len(p.Values) == 0 {
			add("values", "an ordinal parameter needs values, a list of numbers in increasing order")
		}
		for i, v := range p.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				add("values", "values[%d] = %v is not a finite number", i, v)
				return errs
			}
		}
		for i := 1; i < len(p.Values); i++ {
			if p.Values[i] == p.Values[i-1] {
				add("values", "value %s is listed twice", Format(p.Values[i]))
			} else if p.Values[i] < p.Values[i-1] {
				add("values", "values must be in increasing order, but %s comes after %s", Format(p.Values[i]), Format(p.Values[i-1]))
			}
		}
	case Categorical:
		if len(p.Choices) == 0 {
			add("choices", "a categorical parameter needs choices, a non-empty list")
		}
		seen := map[string]bool{}
		for _, c := range p.Choices {
			if seen[c] {
				add("choices", "choice %q is listed twice", c)
			}
			seen[c] = true
		}
	}
	return errs
}

func (p *Param) checkBounds() []*ParamError {
	var errs []*ParamError
	add := func(field, format string, args ...any) {
		errs = append(errs, perr(p.Name, field, format, args...))
	}
	for _, b := range []struct {
		name string
		v    float64
	}{{"low", p.Low}, {"high", p.High}} {
		if math.IsNaN(b.v) || math.IsInf(b.v, 0) {
			add(b.name, "%s must be a finite number, got %v", b.name, b.v)
		} else if p.Kind == Int && b.v != math.Trunc(b.v) {
			add(b.name, "int bounds must be whole numbers, got %s = %s", b.name, Format(b.v))
		} else if p.Kind == Int && math.Abs(b.v) > maxIntBound {
			add(b.name, "int bounds must lie within ±1e15, got %s = %s", b.name, Format(b.v))
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if p.Low >= p.High {
		add("low", "low must be below high, got low = %s, high = %s", Format(p.Low), Format(p.High))
	}
	if p.Log && p.Low <= 0 {
		add("log", "log scale needs low > 0, got low = %s", Format(p.Low))
	} else if p.Log && p.Low < 0x1p-1022 {
		// Below the smallest normal float64, exp(ln v) keeps too few bits:
		// 1.1e-308 came back as 1.7e-308.
		add("low", "log scale needs low ≥ 2.2250738585072014e-308, the smallest normal float64, got low = %s", Format(p.Low))
	}
	if p.Kind == Int && p.Log && p.High > maxLogIntBound {
		add("high", "a log-scale int must lie within 1e13, got high = %s; use a float with log: true and round it", Format(p.High))
	}
	if len(errs) > 0 || p.Kind != Float {
		return errs
	}
	// The encoding divides by the width of the range (ln high − ln low on a
	// log scale): it must be a finite number above 0, or every value would
	// encode to the same point.
	if p.Log {
		if math.Log(p.High) == math.Log(p.Low) {
			add("high", "low = %s and high = %s are too close for a log scale; drop log: true", Format(p.Low), Format(p.High))
		}
	} else if math.IsInf(p.High-p.Low, 0) {
		add("high", "the range from low = %s to high = %s is wider than the largest float64; narrow it", Format(p.Low), Format(p.High))
	}
	return errs
}
