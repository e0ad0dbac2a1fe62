package server

import (
	"strings"
	"testing"
)

// TestSamplerOptions: a study created with the mapping form of its
// sampler keeps its options (the summary answers them), asks run with
// them, and a bad option is a 400 naming what is accepted.
func TestSamplerOptions(t *testing.T) {
	h := New(storeFor(t), Options{})
	body := `{"name":"mes","sampler":{"type":"gpbo","acquisition":"mes","init_points":2},"seed":1,"trials":4,
	  "space":{"x":{"type":"float","low":0,"high":1}}}`
	got := must(t, h, 201, "POST", "/api/v1/studies", body)
	opts, _ := got["sampler_options"].(map[string]any)
	if got["sampler"] != "gpbo" || opts["acquisition"] != "mes" || opts["init_points"] != "2" {
		t.Fatalf("created: sampler %v, options %v", got["sampler"], got["sampler_options"])
	}
	for i := range 4 {
		id := askOne(t, h, "mes")
		must(t, h, 200, "POST", trialPath(id, "tell"), `{"value":`+itoa(i%3)+`}`)
	}
	bad := call(h, "POST", "/api/v1/studies", strings.Replace(body, `"acquisition":"mes"`, `"acquisition":"nope"`, 1))
	if msg := bad.errMsg(t); bad.status != 400 || !strings.Contains(msg, `unknown acquisition "nope"; want one of logei`) {
		t.Errorf("bad option: status %d, %q", bad.status, msg)
	}
}
