package space

import (
	"encoding/json"
	"strconv"
	"testing"
)

func textSpace() *Space {
	return MustNew(
		Param{Name: "frac", Kind: Float, Low: 0.5, High: 1},
		Param{Name: "lr", Kind: Float, Low: 1e-6, High: 1e22, Log: true},
		Param{Name: "n", Kind: Int, Low: 1, High: 1e15},
		Param{Name: "steps", Kind: Ordinal, Values: []float64{1000, 1e6, 1e7}},
		Param{Name: "rate", Kind: Ordinal, Values: []float64{0.5, 1, 2}},
		Param{Name: "kernel", Kind: Categorical, Choices: []string{"rbf", "1"}},
		Param{Name: "on", Kind: Bool},
	)
}

func TestText(t *testing.T) {
	s := textSpace()
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"frac", 1.0, "1.0"},
		{"frac", 0.5, "0.5"},
		{"frac", 0.75, "0.75"},
		{"frac", json.Number("1"), "1.0"}, // a trial stored before, or an old server
		{"frac", json.Number("1.0"), "1.0"},
		{"frac", 1, "1.0"},
		{"lr", 1e-5, "1e-05"},
		{"lr", 1e6, "1000000.0"},
		{"lr", 1e21, "1e+21"},
		{"lr", 1.5e21, "1.5e+21"},
		{"n", 3, "3"},
		{"n", 3.0, "3"},
		{"n", json.Number("3"), "3"},
		{"n", json.Number("999999999999999"), "999999999999999"},
		{"steps", 1e6, "1000000"},
		{"steps", json.Number("1e+06"), "1000000"},
		{"rate", 1.0, "1.0"},
		{"rate", 0.5, "0.5"},
		{"kernel", "1", "1"},
		{"on", true, "true"},
		{"unknown", 1.0, "1"}, // not a parameter: Format
		{"frac", "x", "x"},    // not a number: Format
	}
	for _, tt := range tests {
		if got := s.Text(tt.name, tt.v); got != tt.want {
			t.Errorf("Text(%s, %#v) = %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
}

// TestFloatTextReadsBack checks that the text of a float reads back as the
// same float and never as an integer literal (which json and Python would
// read as an int).
func TestFloatTextReadsBack(t *testing.T) {
	for _, f := range []float64{0, 1, -1, 0.1, 1e-7, 123456789, 1e20, 1e21, 1.7976931348623157e308, 5e-324} {
		txt := FloatText(f)
		if _, err := strconv.ParseInt(txt, 10, 64); err == nil {
			t.Errorf("FloatText(%v) = %q reads as an integer", f, txt)
		}
		g, err := strconv.ParseFloat(txt, 64)
		if err != nil || g != f {
			t.Errorf("FloatText(%v) = %q reads back as %v, %v", f, txt, g, err)
		}
		var v any
		if err := json.Unmarshal([]byte(txt), &v); err != nil {
			t.Errorf("FloatText(%v) = %q is not JSON: %v", f, txt, err)
		}
	}
}

func TestMarshalParams(t *testing.T) {
	s := textSpace()
	a := Assignment{"frac": 1.0, "n": 2, "steps": 1e6, "rate": 2.0, "kernel": "1", "on": false, "other": 1.0}
	js, err := s.MarshalParams(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"frac":1.0,"kernel":"1","n":2,"on":false,"other":1,"rate":2.0,"steps":1000000}`
	if string(js) != want {
		t.Errorf("MarshalParams = %s\nwant            %s", js, want)
	}
	if _, ok := a["frac"].(float64); !ok {
		t.Errorf("MarshalParams changed its argument: %#v", a)
	}
	// Stored JSON of old trials (1 for a float) reads back through the
	// space, and is written as a float again.
	var old map[string]any
	if err := json.Unmarshal([]byte(`{"frac":1,"lr":1,"n":2,"steps":1000000,"rate":1,"kernel":"rbf","on":true}`), &old); err != nil {
		t.Fatal(err)
	}
	c, err := s.Canonical(old)
	if err != nil {
		t.Fatal(err)
	}
	js, _ = s.MarshalParams(c)
	if want := `{"frac":1.0,"kernel":"rbf","lr":1.0,"n":2,"on":true,"rate":1.0,"steps":1000000}`; string(js) != want {
		t.Errorf("old params: MarshalParams = %s, want %s", js, want)
	}
	if js, _ := s.MarshalParams(nil); string(js) != "{}" {
		t.Errorf("MarshalParams(nil) = %s", js)
	}
}
