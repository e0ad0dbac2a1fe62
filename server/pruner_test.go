package server

import "testing"

// A report to a study with a pruner answers the pruner's advice, as
// study.ShouldPrune gives it; the study's summary shows its pruner.
func TestReportAnswersPrune(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			body := `{"name":"p","sampler":"random","seed":1,"trials":5,"pruner":{"type":"median","n_startup_trials":1},
			  "space":{"x":{"type":"float","low":0,"high":1}}}`
			created := must(t, h, 201, "POST", "/api/v1/studies", body)
			if p, _ := created["pruner"].(map[string]any); p["type"] != "median" || p["n_startup_trials"] != 1.0 {
				t.Errorf("created study's pruner: %v", created["pruner"])
			}
			a := askOne(t, h, "p")
			if r := must(t, h, 200, "POST", trialPath(a, "report"), `{"step":1,"value":1}`); r["prune"] != false {
				t.Errorf("first trial, none complete: %v", r)
			}
			must(t, h, 200, "POST", trialPath(a, "tell"), `{"value":1}`)
			b := askOne(t, h, "p")
			for _, c := range []struct {
				body string
				want bool
			}{{`{"step":1,"value":5}`, true}, {`{"step":2,"value":0.5}`, false}} {
				if r := must(t, h, 200, "POST", trialPath(b, "report"), c.body); r["prune"] != c.want {
					t.Errorf("report %s: %v, want prune %v", c.body, r, c.want)
				}
			}
			bad := `{"name":"q","trials":5,"pruner":{"type":"hyperband","reduction_factor":1},"space":{"x":{"type":"float","low":0,"high":1}}}`
			if msg := call(h, "POST", "/api/v1/studies", bad).errMsg(t); msg == "" {
				t.Error("a bad pruner was taken")
			}
		})
	}
}
