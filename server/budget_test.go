package server

import (
	"strings"
	"testing"
)

// TestPatchBudget: PATCH /api/v1/studies/{name} {"trials": N} raises a
// used-up budget, so that ask hands out trials again; bad bodies are 400,
// an unknown study 404, and a read-only server refuses it.
func TestPatchBudget(t *testing.T) {
	store := storeFor(t)
	h := New(store, Options{})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("b", 1))
	askOne(t, h, "b")
	if m := must(t, h, 200, "POST", "/api/v1/studies/b/ask", ""); len(m["trials"].([]any)) != 0 {
		t.Fatalf("ask past a budget of 1: %v, want no trials", m)
	}
	if m := must(t, h, 200, "PATCH", "/api/v1/studies/b", `{"trials": 3}`); m["budget"] != 3.0 {
		t.Errorf("PATCH trials 3 answered %v, want the study with budget 3", m)
	}
	if m := must(t, h, 200, "POST", "/api/v1/studies/b/ask", `{"n": 5}`); len(m["trials"].([]any)) != 2 {
		t.Errorf("ask for 5 after raising the budget to 3: %v, want the 2 left", m)
	}
	for body, want := range map[string]int{`{}`: 400, `{"trials": -1}`: 400, `{"trials": "x"}`: 400, `{"trails": 4}`: 400, ``: 400} {
		if a := call(h, "PATCH", "/api/v1/studies/b", body); a.status != want {
			t.Errorf("PATCH %q: %d %s, want %d", body, a.status, a.body, want)
		}
	}
	if a := call(h, "PATCH", "/api/v1/studies/nope", `{"trials": 4}`); a.status != 404 {
		t.Errorf("PATCH of an unknown study: %d %s, want 404", a.status, a.body)
	}
	ro := New(store, Options{ReadOnly: true})
	if a := call(ro, "PATCH", "/api/v1/studies/b", `{"trials": 4}`); a.status != 403 {
		t.Errorf("PATCH on a read-only server: %d %s, want 403", a.status, a.body)
	}
}

// TestInputNoiseOverHTTP: a study created over HTTP keeps a float's
// input_noise (its summary's space has it) and refuses it on a categorical.
func TestInputNoiseOverHTTP(t *testing.T) {
	h := New(storeFor(t), Options{})
	m := must(t, h, 201, "POST", "/api/v1/studies", `{"name":"knob","sampler":"gpbo","trials":5,"space":{"x":{"type":"float","low":0,"high":1,"input_noise":0.05}}}`)
	x := m["space"].(map[string]any)["x"].(map[string]any)
	if x["input_noise"] != 0.05 {
		t.Errorf("created study's space.x = %v, want input_noise 0.05", x)
	}
	askOne(t, h, "knob")
	a := call(h, "POST", "/api/v1/studies", `{"name":"bad","space":{"k":{"type":"categorical","choices":["a"],"input_noise":0.1}}}`)
	if a.status != 400 || !strings.Contains(a.errMsg(t), "input_noise is not a field of a categorical parameter") {
		t.Errorf("input_noise on a categorical: %d %s", a.status, a.body)
	}
}
