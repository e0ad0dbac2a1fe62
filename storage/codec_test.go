package storage

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// The SQL back-ends' hand-written decoders must agree with encoding/json on
// everything the encoders write.
func TestColumnCodecs(t *testing.T) {
	for _, m := range []map[string]float64{
		{"acc": 0.9},
		{"a": 1, "b": -2.5e-300, "c": math.MaxFloat64, "ключ ✓": 1.0 / 3},
		{`quo"te`: 1, `back\slash`: 2, "<html>": 3},
		{"": 0, " ": -0.0, "x,y": 5, "k:v": 6},
	} {
		arg, err := mapArg(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := metricsCol([]byte(arg.(string)))
		if err != nil || !reflect.DeepEqual(got, m) {
			t.Errorf("metrics %v: round trip = %v, %v", m, got, err)
		}
	}
	for _, bad := range []string{`{"a":}`, `{"a" :1}`, `{a:1}`, `{"a":1`, `[1]`} {
		if m, ok := flatNumbers([]byte(bad)); ok {
			var want map[string]float64
			if json.Unmarshal([]byte(bad), &want) != nil || !reflect.DeepEqual(m, want) {
				t.Errorf("flatNumbers(%s) = %v, accepted what encoding/json reads differently", bad, m)
			}
		}
	}
	for _, x := range [][]float64{nil, {}, {0}, {math.Pi, -0.0, 5e-324, 1e21, math.MaxFloat64}} {
		arg := xArg(x)
		var b []byte
		if arg != nil {
			b = []byte(arg.(string))
			var viaJSON []float64
			if err := json.Unmarshal(b, &viaJSON); err != nil || len(viaJSON) != len(x) {
				t.Errorf("X column %s is not the JSON array %v: %v", b, x, err)
			}
		}
		got, err := xCol(b)
		if err != nil || len(got) != len(x) || (got == nil) != (x == nil) {
			t.Fatalf("X %v: round trip = %v, %v", x, got, err)
		}
		for i := range x {
			if math.Float64bits(got[i]) != math.Float64bits(x[i]) {
				t.Errorf("X %v: element %d = %v", x, i, got[i])
			}
		}
	}
	if _, err := xCol([]byte("[1,,2]")); err == nil {
		t.Error("xCol accepted a malformed array")
	}
}
