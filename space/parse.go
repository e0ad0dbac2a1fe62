package space

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Parse reads the value of parameter name written as text, as on a
// command line (boa enqueue --param name=text), into the Go type its kind
// takes: float64 for Float, Int and Ordinal, string for Categorical, bool
// for Bool. It checks the text's form only; Validate and Canonical check
// the value (range, choices) and say what the legal values are.
func (s *Space) Parse(name, text string) (any, error) {
	i, ok := s.index[name]
	if !ok {
		return nil, perr(name, "", "unknown parameter; the space has %s", strings.Join(s.Names(), ", "))
	}
	p := &s.params[i]
	switch p.Kind {
	case Float, Int, Ordinal:
		f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			what := "a number"
			if p.Kind != Float {
				what = p.describe()
			}
			return nil, perr(name, "", "want %s, got %q", what, text)
		}
		return f, nil
	case Bool:
		switch strings.ToLower(strings.TrimSpace(text)) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, perr(name, "", "want true or false, got %q", text)
	case Categorical:
		return text, nil
	}
	return nil, fmt.Errorf("space: %s: unknown kind %d", name, int(p.Kind))
}

// String describes the parameter in a line, as boa validate lists a
// space: "lr: float, a number in [1e-05, 0.1], log scale", "degree: int,
// an integer in [2, 5], when kernel is poly".
func (p Param) String() string {
	s := p.Name + ": " + p.Kind.String() + ", " + p.describe()
	if p.Log {
		s += ", log scale"
	}
	if p.InputNoise > 0 {
		s += ", applied with noise σ = " + Format(p.InputNoise)
	}
	if len(p.When) > 0 {
		parents := make([]string, 0, len(p.When))
		for k := range p.When {
			parents = append(parents, k)
		}
		slices.Sort(parents)
		conds := make([]string, len(parents))
		for i, k := range parents {
			conds[i] = k + " is " + strings.Join(p.When[k], " or ")
		}
		s += ", when " + strings.Join(conds, " and ")
	}
	return s
}
