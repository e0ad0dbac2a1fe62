package constraint

import (
	"math"
	"strings"
	"testing"
)

func ptr(x float64) *float64 { return &x }

func TestCheck(t *testing.T) {
	s := Set{"ram_kb": {Max: ptr(256)}, "accuracy": {Min: ptr(0.8)}, "width": {Min: ptr(1), Max: ptr(2)}}
	for _, c := range []struct {
		name     string
		metrics  map[string]float64
		feasible bool
		slack    []float64 // accuracy, ram_kb, width
		reason   string
	}{
		{"holds", map[string]float64{"ram_kb": 256, "accuracy": 0.9, "width": 1.5}, true, []float64{-0.1, 0, -0.5}, ""},
		{"over", map[string]float64{"ram_kb": 300, "accuracy": 0.9, "width": 2.5}, false, []float64{-0.1, 44, 0.5}, "infeasible: ram_kb = 300, want <= 256; width = 2.5, want in [1, 2]"},
		{"under", map[string]float64{"ram_kb": 1, "accuracy": 0.5, "width": 0}, false, []float64{0.3, -255, 1}, "infeasible: accuracy = 0.5, want >= 0.8; width = 0, want in [1, 2]"},
		{"missing and NaN", map[string]float64{"ram_kb": math.NaN(), "width": 1}, false, []float64{math.NaN(), math.NaN(), 0}, "infeasible: accuracy not reported; ram_kb is NaN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := s.Check(c.metrics)
			if v.Feasible != c.feasible || v.Reason != c.reason {
				t.Errorf("feasible %v reason %q, want %v %q", v.Feasible, v.Reason, c.feasible, c.reason)
			}
			for i, want := range c.slack {
				got := v.Slack[i]
				if !(math.Abs(got-want) < 1e-12 || math.IsNaN(got) && math.IsNaN(want)) {
					t.Errorf("slack[%d] = %v, want %v", i, got, want)
				}
			}
		})
	}
	if v := Set(nil).Check(nil); !v.Feasible || len(v.Slack) != 0 {
		t.Errorf("empty set: %+v", v)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		s    Set
		want string
	}{
		{Set{"ram_kb": {Max: ptr(256)}}, ""},
		{Set{"": {Max: ptr(1)}}, "empty"},
		{Set{"ram kb": {Max: ptr(1)}}, "not a metric name"},
		{Set{"ram_kb": {}}, "give min, max or both"},
		{Set{"ram_kb": {Max: ptr(math.Inf(1))}}, "finite"},
		{Set{"ram_kb": {Min: ptr(2), Max: ptr(1)}}, "min 2 is greater than max 1"},
	} {
		err := c.s.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%v: error %v, want %q", c.s, err, c.want)
		}
	}
}
