package server

import (
	"strings"
	"testing"
)

// TestTellValues: a study of two objectives takes a COMPLETE trial's
// values as a list or by name, refuses a single value, the wrong number,
// a missing or an unknown name with a 400 that names its objectives, and
// answers a repeated tell as the same; its summary names the objectives
// and the front, and best answers the front.
func TestTellValues(t *testing.T) {
	h := New(storeFor(t), Options{})
	must(t, h, 201, "POST", "/api/v1/studies", `{"name":"mo","sampler":"random","seed":1,"trials":10,
	  "directions":{"accuracy":"maximize","latency":"minimize"},"space":{"x":{"type":"float","low":0,"high":1}}}`)
	want := `study "mo" has 2 objective(s) (accuracy, latency)`
	id := askOne(t, h, "mo")
	for body, msg := range map[string]string{
		`{"value": 0.9}`:                `value: ` + want + `: send "values"`,
		`{"values": [0.9]}`:             `values: 1 given, but ` + want,
		`{"values": {"accuracy": 0.9}}`: `values: objective latency is missing: ` + want,
		`{"values": {"accuracy": 0.9, "latency": 3, "x": 1}}`: `values: accuracy, latency, x given, but ` + want,
		`{"values": [0.9, "NaN"]}`:                            `values[1]: "NaN" is not a finite number`,
		`{"values": [0.9, 3], "value": 0.9}`:                  `value and values: send one`,
		`{"state": "PRUNED", "values": [0.9, 3]}`:             `values: only a COMPLETE trial has a value per objective`,
	} {
		a := call(h, "POST", trialPath(id, "tell"), body)
		if a.status != 400 || !strings.Contains(a.errMsg(t), msg) {
			t.Errorf("%s: %d %q, want 400 %q", body, a.status, a.errMsg(t), msg)
		}
	}
	told := must(t, h, 200, "POST", trialPath(id, "tell"), `{"values": {"latency": 3, "accuracy": 0.9}}`)
	if vs, _ := told["values"].([]any); len(vs) != 2 || vs[0] != 0.9 || vs[1] != 3.0 || told["value"] != 0.9 {
		t.Errorf("tell answered %v, want values [0.9 3] in the study's order", told)
	}
	must(t, h, 200, "POST", trialPath(id, "tell"), `{"values": [0.9, 3]}`) // the same result again
	if a := call(h, "POST", trialPath(id, "tell"), `{"values": [0.9, 4]}`); a.status != 409 {
		t.Errorf("another result for a finished trial: %d, want 409", a.status)
	}
	for _, body := range []string{`{"values": [0.95, 5]}`, `{"values": [0.8, 4]}`} {
		must(t, h, 200, "POST", trialPath(askOne(t, h, "mo"), "tell"), body)
	}
	st := must(t, h, 200, "GET", "/api/v1/studies/mo", "")
	if front, _ := st["front"].([]any); len(front) != 2 || front[0] != 0.0 || front[1] != 1.0 {
		t.Errorf("front %v, want trials 0 and 1 (2 is dominated by 0)", st["front"])
	}
	if objs, _ := st["objectives"].([]any); len(objs) != 2 {
		t.Errorf("objectives %v", st["objectives"])
	}
	best := must(t, h, 200, "GET", "/api/v1/studies/mo/best", "")
	if trials, _ := best["trials"].([]any); len(trials) != 2 {
		t.Errorf("best %v, want the front's 2 trials", best)
	}
}
