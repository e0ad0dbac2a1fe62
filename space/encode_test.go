package space

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := svm()
	tests := []Assignment{
		{"C": 1e-3, "kernel": "rbf", "width": 16.0, "shrinking": false, "iters": 1},
		{"C": 1e3, "kernel": "poly", "degree": 2, "width": 128.0, "shrinking": true, "iters": 1000},
		{"C": 0.37, "kernel": "poly", "degree": 5, "width": 32.0, "shrinking": true, "iters": 2},
		{"C": 1.0, "kernel": "linear", "width": 64.0, "shrinking": false, "iters": 999},
	}
	for _, a := range tests {
		u, err := s.Encode(a)
		if err != nil {
			t.Fatalf("Encode(%v): %v", a, err)
		}
		for i, x := range u {
			if x < 0 || x > 1 {
				t.Errorf("Encode(%v)[%d] = %v outside [0,1]", a, i, x)
			}
		}
		got := s.Decode(u)
		if len(got) != len(a) {
			t.Fatalf("Decode(Encode(%v)) = %v", a, got)
		}
		for k, v := range a {
			if f, ok := v.(float64); ok && k == "C" {
				if g := got[k].(float64); math.Abs(g-f) > 1e-12*f {
					t.Errorf("%s: %v → %v", k, f, g)
				}
				continue
			}
			if got[k] != v {
				t.Errorf("%s: %v (%T) → %v (%T)", k, v, v, got[k], got[k])
			}
		}
		// A rounded point is unchanged by Round, and encoding is canonical.
		r := append([]float64(nil), u...)
		s.Round(r)
		if !reflect.DeepEqual(r, u) {
			t.Errorf("Round changed an encoded point: %v → %v", u, r)
		}
	}
}

func TestEveryLevelRoundTrips(t *testing.T) {
	s := MustNew(
		Param{Name: "lin", Kind: Int, Low: -3, High: 40},
		Param{Name: "log", Kind: Int, Low: 1, High: 5000, Log: true},
		Param{Name: "log2", Kind: Int, Low: 7, High: 9, Log: true},
		Param{Name: "ord", Kind: Ordinal, Values: []float64{-1, 0, 0.1, 2.5, 1e6}},
		Param{Name: "cat", Kind: Categorical, Choices: []string{"a", "b", "c", "d", "e", "f", "g"}},
		Param{Name: "b", Kind: Bool},
	)
	for i := range s.Len() {
		prev := -1.0
		for k := range s.Levels(i) {
			c := s.code(i, k)
			if c <= prev || c < 0 || c > 1 {
				t.Fatalf("param %d: code of level %d = %v after %v", i, k, c, prev)
			}
			prev = c
			if got := s.level(i, c); got != k {
				t.Fatalf("param %d: level(code(%d)) = %d", i, k, got)
			}
		}
		// The cells tile [0,1]: the ends decode to the first and last levels
		// and levels never decrease with u.
		last := 0
		for j := 0; j <= 10000; j++ {
			k := s.level(i, float64(j)/10000)
			if k < last {
				t.Fatalf("param %d: level not monotone at u = %v", i, float64(j)/10000)
			}
			last = k
		}
		if s.level(i, 0) != 0 || s.level(i, 1) != s.Levels(i)-1 {
			t.Fatalf("param %d: ends decode to %d, %d", i, s.level(i, 0), s.level(i, 1))
		}
	}
	// Linear Int codes are the cell centres (v − low + ½)/L.
	if c := s.code(0, 0); c != 0.5/44 {
		t.Errorf("code of -3 = %v, want %v", c, 0.5/44)
	}
	// Log Int: the cell of v is [ln(v−½), ln(v+½)) rescaled, so small
	// integers get wide cells.
	w1 := math.Log(1.5) - math.Log(0.5)
	w2 := math.Log(5000.5) - math.Log(4999.5)
	if w1 < 1000*w2 {
		t.Errorf("log-int cell widths %v, %v do not follow the log scale", w1, w2)
	}
}

func TestLargestLogIntRoundTrips(t *testing.T) {
	// At the largest bound New accepts, the top integers, where the cells
	// are narrowest, still have codes of their own (at 1e15 most did not:
	// 999999999998000 came back as a neighbour).
	s := MustNew(Param{Name: "n", Kind: Int, Low: 1, High: maxLogIntBound, Log: true})
	prev := -1.0
	for v := int(maxLogIntBound) - 100000; v <= int(maxLogIntBound); v++ {
		u, err := s.Encode(Assignment{"n": v})
		if err != nil {
			t.Fatal(err)
		}
		if u[0] <= prev {
			t.Fatalf("code of %d = %v is not above the code of %d", v, u[0], v-1)
		}
		prev = u[0]
		if got := s.Decode(u)["n"]; got != v {
			t.Fatalf("Decode(Encode(%d)) = %v", v, got)
		}
	}
}

func TestFloatEncoding(t *testing.T) {
	s := MustNew(
		Param{Name: "x", Kind: Float, Low: -2, High: 6},
		Param{Name: "C", Kind: Float, Low: 1e-3, High: 1e3, Log: true},
	)
	u, err := s.Encode(Assignment{"x": 0.0, "C": 1.0})
	if err != nil {
		t.Fatal(err)
	}
	if u[0] != 0.25 || math.Abs(u[1]-0.5) > 1e-15 {
		t.Errorf("Encode = %v, want [0.25 0.5]", u)
	}
	a := s.Decode([]float64{1, 0})
	if a["x"] != 6.0 || a["C"] != 1e-3 {
		t.Errorf("Decode ends = %v", a)
	}
	// Out of range and NaN coordinates are clamped, not errors.
	a = s.Decode([]float64{math.NaN(), 7})
	if a["x"] != 2.0 || a["C"] != 1e3 {
		t.Errorf("Decode(NaN, 7) = %v", a)
	}
}

func TestWideFloatRange(t *testing.T) {
	// The widest range New accepts still encodes every value to its own
	// place: −1e308…1e308 (width +Inf) encoded everything below 1e308 to 0.
	s := MustNew(Param{Name: "x", Kind: Float, Low: -8e307, High: 8e307})
	for _, v := range []float64{-8e307, -1e307, 0, 1, 1e307, 8e307} {
		u, err := s.Encode(Assignment{"x": v})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Decode(u)["x"].(float64); math.Abs(got-v) > 1e-15*8e307 {
			t.Errorf("%g → %v → %g", v, u, got)
		}
	}
}

func TestLogFloatFromTheSmallestNormal(t *testing.T) {
	// The smallest log-scale low New accepts: values near it survive
	// Encode and Decode to 1e-12 (below it, 1.1e-308 came back as 1.7e-308).
	s := MustNew(Param{Name: "C", Kind: Float, Low: 0x1p-1022, High: 1e300, Log: true})
	for _, v := range []float64{0x1p-1022, 2.5e-308, 1e-300, 1, 1e300} {
		u, err := s.Encode(Assignment{"C": v})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Decode(u)["C"].(float64); math.Abs(got-v) > 1e-12*v {
			t.Errorf("%g → %v → %g", v, u, got)
		}
	}
}

func TestRound(t *testing.T) {
	s := svm()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		u := make([]float64, s.Len())
		for i := range u {
			u[i] = rng.Float64()*1.4 - 0.2
		}
		before := s.Decode(u)
		s.Round(u)
		after := s.Decode(u)
		for k, v := range after {
			if k != "C" && before[k] != v {
				t.Fatalf("Round changed %s: %v → %v", k, before[k], v)
			}
		}
		r := append([]float64(nil), u...)
		s.Round(r)
		if !reflect.DeepEqual(r, u) {
			t.Fatalf("Round not idempotent: %v → %v", u, r)
		}
		for _, x := range u {
			if x < 0 || x > 1 {
				t.Fatalf("Round left %v outside [0,1]", x)
			}
		}
	}
}

func TestActive(t *testing.T) {
	s := MustNew(
		Param{Name: "coef", Kind: Float, Low: 0, High: 1, When: map[string][]string{"degree": {"3"}}},
		Param{Name: "degree", Kind: Int, Low: 2, High: 4, When: map[string][]string{"kernel": {"poly"}}},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "poly"}},
	)
	tests := []struct {
		u    []float64
		want []bool
	}{
		{[]float64{0.5, 0.5, 0.75}, []bool{true, true, true}},   // poly, degree 3
		{[]float64{0.5, 0.1, 0.75}, []bool{false, true, true}},  // poly, degree 2
		{[]float64{0.5, 0.5, 0.25}, []bool{false, false, true}}, // rbf: degree inactive, so coef too
	}
	for _, tt := range tests {
		if got := s.Active(tt.u); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Active(%v) = %v, want %v", tt.u, got, tt.want)
		}
	}
	a := s.Decode([]float64{0.5, 0.5, 0.25})
	if len(a) != 1 || a["kernel"] != "rbf" {
		t.Errorf("Decode keeps only active params, got %v", a)
	}
	u, err := s.Encode(Assignment{"kernel": "rbf"})
	if err != nil || u[0] != 0.5 || u[1] != 0.5 {
		t.Errorf("Encode with inactive params: %v, %v; want placeholders 0.5", u, err)
	}
	u, err = s.Encode(Assignment{"kernel": "poly", "degree": 3, "coef": 0.25})
	if err != nil || u[0] != 0.25 {
		t.Errorf("Encode conditional: %v, %v", u, err)
	}
}

func TestValidateErrors(t *testing.T) {
	s := svm()
	base := func() Assignment {
		return Assignment{"C": 1.0, "kernel": "rbf", "width": 16.0, "shrinking": true, "iters": 10}
	}
	with := func(k string, v any) Assignment {
		a := base()
		if v == nil {
			delete(a, k)
		} else {
			a[k] = v
		}
		return a
	}
	tests := []struct {
		name  string
		a     Assignment
		param string
		want  string
	}{
		{"unknown", with("gamma", 1.0), "gamma", "unknown parameter"},
		{"float type", with("C", "big"), "C", `want a number, got "big"`},
		{"float range", with("C", 1e4), "C", "outside [0.001, 1000]"},
		{"float NaN", with("C", math.NaN()), "C", "outside"},
		{"int type", with("iters", true), "iters", "want a number"},
		{"int whole", with("iters", 2.5), "iters", "whole number, got 2.5"},
		{"int range", with("iters", 0), "iters", "outside [1, 1000]"},
		{"ordinal value", with("width", 20.0), "width", "value 20 is not one of 16, 32, 64, 128"},
		{"ordinal type", with("width", "16"), "width", "want a number"},
		{"choice", with("kernel", "sigmoid"), "kernel", `"sigmoid" is not one of rbf, poly, linear`},
		{"bool", with("shrinking", "yes"), "shrinking", "want true or false"},
		{"missing", with("width", nil), "width", "missing a value"},
		{"missing active child", with("kernel", "poly"), "degree", "missing a value; it is active (kernel = poly) and must be an integer in [2, 5]"},
		{"inactive present", with("degree", 3), "degree", "inactive (it needs kernel in [poly], got rbf)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(tt.a)
			if err == nil {
				t.Fatal("no error")
			}
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param != tt.param {
				t.Fatalf("error %v does not name %q", err, tt.param)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
	if err := s.Validate(base()); err != nil {
		t.Errorf("valid assignment rejected: %v", err)
	}
}

func TestValidateLiberalTypes(t *testing.T) {
	s := MustNew(
		Param{Name: "n", Kind: Int, Low: 1, High: 10},
		Param{Name: "x", Kind: Float, Low: 0, High: 10},
		Param{Name: "k", Kind: Categorical, Choices: []string{"16", "relu", "true"}},
		Param{Name: "b", Kind: Bool},
	)
	// As decoded from JSON: every number is a float64.
	var a Assignment
	if err := json.Unmarshal([]byte(`{"n": 3, "x": 2, "k": 16, "b": "true"}`), &a); err != nil {
		t.Fatal(err)
	}
	c, err := s.Canonical(a)
	if err != nil {
		t.Fatal(err)
	}
	want := Assignment{"n": 3, "x": 2.0, "k": "16", "b": true}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Canonical = %#v, want %#v", c, want)
	}
	if _, err := s.Canonical(Assignment{"n": 0}); err == nil {
		t.Error("Canonical accepted an invalid assignment")
	}
}

func TestLengthPanics(t *testing.T) {
	s := svm()
	for name, f := range map[string]func(){
		"Decode":   func() { s.Decode([]float64{0.5}) },
		"Round":    func() { s.Round(nil) },
		"Active":   func() { s.Active(make([]float64, 7)) },
		"Features": func() { s.Features([]float64{1}, nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic on a short point", name)
				}
			}()
			f()
		}()
	}
}

func TestEncodeReportsABadValueOnce(t *testing.T) {
	sp := MustNew(Param{Name: "x", Kind: Float, Low: 0, High: 1})
	_, err := sp.Encode(Assignment{"x": 2.0})
	if err == nil || strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v; want one error about the range, none about a missing value", err)
	}
}
