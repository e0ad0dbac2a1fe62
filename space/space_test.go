package space

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// svm is the space of the DESIGN.md §2.2 example, plus a Bool and a log Int.
func svm() *Space {
	return MustNew(
		Param{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear"}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		Param{Name: "width", Kind: Ordinal, Values: []float64{16, 32, 64, 128}},
		Param{Name: "shrinking", Kind: Bool},
		Param{Name: "iters", Kind: Int, Low: 1, High: 1000, Log: true},
	)
}

func TestNewErrors(t *testing.T) {
	f := func(name string, lo, hi float64) Param { return Param{Name: name, Kind: Float, Low: lo, High: hi} }
	cat := Param{Name: "k", Kind: Categorical, Choices: []string{"a", "b"}}
	tests := []struct {
		name   string
		params []Param
		param  string // the parameter the error must name
		want   string // a phrase the message must contain
	}{
		{"no params", nil, "", "no parameters"},
		{"empty name", []Param{f("", 0, 1)}, "", "empty name"},
		{"spaces in name", []Param{f(" x", 0, 1)}, " x", "leading or trailing spaces"},
		{"duplicate", []Param{f("x", 0, 1), f("x", 0, 2)}, "x", "declared twice"},
		{"low >= high", []Param{f("x", 1, 1)}, "x", "low must be below high, got low = 1, high = 1"},
		{"low > high", []Param{f("x", 2, 1)}, "x", "low must be below high"},
		{"NaN low", []Param{f("x", math.NaN(), 1)}, "x", "low must be a finite number, got NaN"},
		{"Inf high", []Param{f("x", 0, math.Inf(1))}, "x", "high must be a finite number, got +Inf"},
		{"log low 0", []Param{{Name: "C", Kind: Float, Low: 0, High: 1, Log: true}}, "C", "log scale needs low > 0, got low = 0"},
		{"log low < 0", []Param{{Name: "n", Kind: Int, Low: -1, High: 4, Log: true}}, "n", "log scale needs low > 0, got low = -1"},
		{"int not whole", []Param{{Name: "n", Kind: Int, Low: 0.5, High: 4}}, "n", "whole numbers, got low = 0.5"},
		{"int too big", []Param{{Name: "n", Kind: Int, Low: 0, High: 1e16}}, "n", "within ±1e15"},
		{"log low subnormal", []Param{{Name: "C", Kind: Float, Low: 5e-324, High: 1, Log: true}}, "C", "smallest normal float64, got low = 5e-324"},
		{"log int too big", []Param{{Name: "n", Kind: Int, Low: 1, High: 1e15, Log: true}}, "n", "log-scale int must lie within 1e13, got high = 1e+15"},
		{"range overflows", []Param{f("x", -1e308, 1e308)}, "x", "wider than the largest float64"},
		{"log range empty", []Param{{Name: "x", Kind: Float, Low: 1e300, High: math.Nextafter(1e300, 2e300), Log: true}}, "x", "too close for a log scale"},
		{"float with choices", []Param{{Name: "x", Kind: Float, High: 1, Choices: []string{"a"}}}, "x", "choices is only for categorical"},
		{"float with values", []Param{{Name: "x", Kind: Float, High: 1, Values: []float64{1}}}, "x", "values is only for ordinal"},
		{"categorical with bounds", []Param{{Name: "k", Kind: Categorical, Choices: []string{"a"}, High: 3}}, "k", "low and high are only for float and int"},
		{"ordinal with log", []Param{{Name: "w", Kind: Ordinal, Values: []float64{1, 2}, Log: true}}, "w", "log is only for float and int"},
		{"bool with choices", []Param{{Name: "b", Kind: Bool, Choices: []string{"yes", "no"}}}, "b", "choices is only for categorical"},
		{"unknown kind", []Param{{Name: "z", Kind: Kind(9)}}, "z", "unknown kind 9"},
		{"empty values", []Param{{Name: "w", Kind: Ordinal}}, "w", "needs values"},
		{"NaN value", []Param{{Name: "w", Kind: Ordinal, Values: []float64{1, math.NaN()}}}, "w", "values[1] = NaN is not a finite number"},
		{"duplicate value", []Param{{Name: "w", Kind: Ordinal, Values: []float64{1, 2, 2}}}, "w", "value 2 is listed twice"},
		{"unsorted values", []Param{{Name: "w", Kind: Ordinal, Values: []float64{16, 64, 32}}}, "w", "increasing order, but 32 comes after 64"},
		{"empty choices", []Param{{Name: "k", Kind: Categorical}}, "k", "needs choices"},
		{"duplicate choice", []Param{{Name: "k", Kind: Categorical, Choices: []string{"a", "b", "a"}}}, "k", `choice "a" is listed twice`},
		{"unknown parent", []Param{{Name: "d", Kind: Int, Low: 1, High: 3, When: map[string][]string{"kernel": {"poly"}}}}, "d", `unknown parameter "kernel"`},
		{"self parent", []Param{{Name: "k", Kind: Categorical, Choices: []string{"a"}, When: map[string][]string{"k": {"a"}}}}, "k", "conditional on itself"},
		{"float parent", []Param{f("x", 0, 1), {Name: "y", Kind: Bool, When: map[string][]string{"x": {"0.5"}}}}, "y", "float parameter"},
		{"empty condition", []Param{cat, {Name: "y", Kind: Bool, When: map[string][]string{"k": {}}}}, "y", "lists no values"},
		{"impossible choice", []Param{cat, {Name: "y", Kind: Bool, When: map[string][]string{"k": {"c"}}}}, "y", `"c" is never taken by k, which is one of a, b`},
		{"impossible int", []Param{{Name: "n", Kind: Int, Low: 1, High: 3}, {Name: "y", Kind: Bool, When: map[string][]string{"n": {"4"}}}}, "y", `"4" is never taken by n, which is an integer in [1, 3]`},
		{"impossible ordinal", []Param{{Name: "w", Kind: Ordinal, Values: []float64{16, 32}}, {Name: "y", Kind: Bool, When: map[string][]string{"w": {"24"}}}}, "y", `"24" is never taken by w`},
		{"impossible bool", []Param{{Name: "b", Kind: Bool}, {Name: "y", Kind: Bool, When: map[string][]string{"b": {"yes"}}}}, "y", `"yes" is never taken by b, which is true or false`},
		{"cycle", []Param{
			{Name: "a", Kind: Bool, When: map[string][]string{"b": {"true"}}},
			{Name: "b", Kind: Bool, When: map[string][]string{"a": {"true"}}},
		}, "a", "conditions form a cycle: a → b → a"},
		{"3-cycle", []Param{
			{Name: "a", Kind: Bool, When: map[string][]string{"c": {"true"}}},
			{Name: "b", Kind: Bool, When: map[string][]string{"a": {"true"}}},
			{Name: "c", Kind: Bool, When: map[string][]string{"b": {"true"}}},
		}, "a", "cycle: a → b → c → a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.params...)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParamError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParamError", err)
			}
			if pe.Param != tt.param {
				t.Errorf("error names parameter %q, want %q: %v", pe.Param, tt.param, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if tt.param != "" && !strings.Contains(err.Error(), "space."+tt.param+":") {
				t.Errorf("error %q does not start with space.%s:", err, tt.param)
			}
		})
	}
}

func TestNewReportsAllProblems(t *testing.T) {
	_, err := New(
		Param{Name: "a", Kind: Float, Low: 1, High: 0},
		Param{Name: "b", Kind: Ordinal},
	)
	for _, want := range []string{"space.a:", "space.b:"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not report %s", err, want)
		}
	}
}

func TestNewAccepts(t *testing.T) {
	// Children may be declared before their parents, conditions may chain,
	// and condition values are canonicalised.
	s, err := New(
		Param{Name: "gamma", Kind: Float, Low: 1e-4, High: 1, Log: true, When: map[string][]string{"kernel": {"rbf", "poly"}}},
		Param{Name: "coef", Kind: Float, Low: 0, High: 1, When: map[string][]string{"degree": {"3.0", "4"}, "kernel": {"poly"}}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly", "linear"}},
		Param{Name: "width", Kind: Ordinal, Values: []float64{0.5, 16}},
		Param{Name: "wide", Kind: Bool, When: map[string][]string{"width": {"16.0"}}},
		Param{Name: "single", Kind: Categorical, Choices: []string{"only"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Params()[1].When["degree"]; strings.Join(got, ",") != "3,4" {
		t.Errorf("canonical condition values %v, want [3 4]", got)
	}
	if got := s.Params()[5].When["width"]; strings.Join(got, ",") != "16" {
		t.Errorf("canonical condition values %v, want [16]", got)
	}
	if s.Len() != 7 || !s.Continuous(0) || s.Continuous(2) || s.Levels(2) != 4 || s.Levels(0) != 0 || s.Levels(3) != 3 || s.Levels(5) != 2 {
		t.Errorf("accessors: Len %d Levels %d %d %d %d", s.Len(), s.Levels(0), s.Levels(2), s.Levels(3), s.Levels(5))
	}
	for i, want := range []bool{false, false, false, true, false, true, true} { // kernel, wide, single
		if s.Unordered(i) != want {
			t.Errorf("Unordered(%d) = %v, want %v", i, !want, want)
		}
	}
	if i, ok := s.Index("kernel"); !ok || i != 3 {
		t.Errorf("Index(kernel) = %d, %v", i, ok)
	}
	if _, ok := s.Index("nope"); ok {
		t.Error("Index(nope) found")
	}
	if !s.Conditional(0) || s.Conditional(3) {
		t.Error("Conditional wrong")
	}
	// Params returns copies.
	ps := s.Params()
	ps[3].Choices[0] = "changed"
	if s.Params()[3].Choices[0] != "rbf" {
		t.Error("Params exposes internal state")
	}
}

func TestKindAndDesignNames(t *testing.T) {
	for k := Float; k <= Bool; k++ {
		got, err := ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v", k, got, err)
		}
	}
	if _, err := ParseKind("flaot"); err == nil || !strings.Contains(err.Error(), "float, int, ordinal, categorical, bool") {
		t.Errorf("ParseKind(flaot) error %v", err)
	}
	for d := DesignUniform; d <= DesignLHS; d++ {
		got, err := ParseDesign(d.String())
		if err != nil || got != d {
			t.Errorf("ParseDesign(%q) = %v, %v", d, got, err)
		}
	}
	if _, err := ParseDesign("grid"); err == nil {
		t.Error("ParseDesign(grid) accepted")
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{3, "3"}, {3.0, "3"}, {0.5, "0.5"}, {1e-3, "0.001"}, {true, "true"}, {false, "false"},
		{"rbf", "rbf"}, {int64(-7), "-7"}, {uint8(5), "5"}, {float32(0.25), "0.25"}, {1e21, "1e+21"},
	}
	for _, tt := range tests {
		if got := Format(tt.v); got != tt.want {
			t.Errorf("Format(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestConditionOnAWideInt(t *testing.T) {
	// An Int parent may have 2e15+1 levels: a condition on it must not
	// allocate one flag per level (it panicked with "makeslice: len out
	// of range").
	s, err := New(
		Param{Name: "n", Kind: Int, Low: -1e15, High: 1e15},
		Param{Name: "x", Kind: Float, Low: 0, High: 1, When: map[string][]string{"n": {"1000000000000000", "-3", "7", "-3"}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Params()[1].When["n"]; strings.Join(got, ",") != "1000000000000000,-3,7" {
		t.Errorf("canonical condition values %v", got)
	}
	for _, tc := range []struct {
		n      int
		active bool
	}{{-1e15, false}, {-3, true}, {-2, false}, {7, true}, {1e15, true}, {1e15 - 1, false}} {
		a := Assignment{"n": tc.n}
		if tc.active {
			a["x"] = 0.25
		}
		u, err := s.Encode(a)
		if err != nil {
			t.Fatalf("n = %d: %v", tc.n, err)
		}
		if got := s.Decode(u); len(got) != len(a) || got["n"] != tc.n {
			t.Errorf("n = %d: Decode(Encode(%v)) = %v", tc.n, a, got)
		}
	}
}
