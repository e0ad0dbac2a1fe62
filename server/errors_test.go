package server

import (
	"strings"
	"testing"
)

// TestBadInputs sends every kind of bad input of issue 3, item 6, and
// checks the status and that the message says what is wrong.
func TestBadInputs(t *testing.T) {
	big := `{"name":"big","space":{"x":{"type":"float","low":0,"high":1}},"pad":"` + strings.Repeat("x", 2048) + `"}`
	cases := []struct {
		name         string
		method, path string
		body         string
		status       int
		says         string // a substring of the error message
	}{
		// create
		{"create empty", "POST", "/api/v1/studies", "", 400, "empty"},
		{"create malformed", "POST", "/api/v1/studies", `{"name":"a",`, 400, "malformed JSON"},
		{"create syntax", "POST", "/api/v1/studies", `{"name" "a"}`, 400, "malformed JSON at byte"},
		{"create array", "POST", "/api/v1/studies", `[1,2]`, 400, "JSON object"},
		{"create trailing", "POST", "/api/v1/studies", studyBody("t", 1) + `{}`, 400, "after the JSON object"},
		{"create unknown field", "POST", "/api/v1/studies", `{"name":"a","colour":"red","space":{"x":{"type":"float","low":0,"high":1}}}`, 400, `unknown field "colour"`},
		{"create no space", "POST", "/api/v1/studies", `{"name":"a"}`, 400, "space"},
		{"create bad param", "POST", "/api/v1/studies", `{"name":"a","space":{"x":{"type":"float","low":2,"high":1}}}`, 400, "x"},
		{"create bad sampler", "POST", "/api/v1/studies", `{"name":"a","sampler":"magic","space":{"x":{"type":"float","low":0,"high":1}}}`, 400, "magic"},
		{"create conditional for casmopolitan", "POST", "/api/v1/studies", `{"name":"c","sampler":"casmopolitan","space":{"k":{"type":"categorical","choices":["a","b"]},"d":{"type":"int","low":1,"high":3,"when":{"k":["a"]}},"x":{"type":"float","low":0,"high":1}}}`, 400, `"d" is conditional`},
		{"create bad direction", "POST", "/api/v1/studies", `{"name":"a","direction":"up","space":{"x":{"type":"float","low":0,"high":1}}}`, 400, "direction"},
		{"create no name", "POST", "/api/v1/studies", `{"space":{"x":{"type":"float","low":0,"high":1}}}`, 400, "name"},
		{"create exists", "POST", "/api/v1/studies", studyBody("s", 3), 409, "already exists"},
		{"create too large", "POST", "/api/v1/studies", big, 413, "larger than 1024 bytes"},

		// ask
		{"ask unknown study", "POST", "/api/v1/studies/nosuch/ask", `{}`, 404, `study "nosuch" not found`},
		{"ask n zero", "POST", "/api/v1/studies/s/ask", `{"n":0}`, 400, "n: want between 1 and 100"},
		{"ask n too many", "POST", "/api/v1/studies/s/ask", `{"n":101}`, 400, "n: want between 1 and 100"},
		{"ask n string", "POST", "/api/v1/studies/s/ask", `{"n":"2"}`, 400, `field "n": want an integer`},
		{"ask n fraction", "POST", "/api/v1/studies/s/ask", `{"n":1.5}`, 400, `field "n"`},
		{"ask unknown field", "POST", "/api/v1/studies/s/ask", `{"count":2}`, 400, `unknown field "count"`},
		{"ask worker NUL", "POST", "/api/v1/studies/s/ask", `{"worker":"a\u0000b"}`, 400, "NUL"},
		{"ask malformed", "POST", "/api/v1/studies/s/ask", `{"n":`, 400, "malformed JSON"},
		{"ask not object", "POST", "/api/v1/studies/s/ask", `3`, 400, "JSON object"},

		// tell
		{"tell unknown trial", "POST", "/api/v1/trials/999/tell", `{"value":1}`, 404, "trial 999 not found"},
		{"tell id not a number", "POST", "/api/v1/trials/abc/tell", `{"value":1}`, 400, "positive integer"},
		{"tell id zero", "POST", "/api/v1/trials/0/tell", `{"value":1}`, 400, "positive integer"},
		{"tell NaN string", "POST", "/api/v1/trials/1/tell", `{"value":"NaN"}`, 400, "not a finite number"},
		{"tell Inf string", "POST", "/api/v1/trials/1/tell", `{"value":"-Infinity"}`, 400, "not a finite number"},
		{"tell inf string", "POST", "/api/v1/trials/1/tell", `{"value":"inf"}`, 400, "not a finite number"},
		{"tell NaN bare", "POST", "/api/v1/trials/1/tell", `{"value":NaN}`, 400, "malformed JSON"},
		{"tell number string", "POST", "/api/v1/trials/1/tell", `{"value":"0.5"}`, 400, "without quotes"},
		{"tell overflow", "POST", "/api/v1/trials/1/tell", `{"value":1e400}`, 400, "out of the range"},
		{"tell missing value", "POST", "/api/v1/trials/1/tell", `{"metrics":{"a":1}}`, 400, "value: missing"},
		{"tell null value", "POST", "/api/v1/trials/1/tell", `{"value":null}`, 400, "value: missing"},
		{"tell bool value", "POST", "/api/v1/trials/1/tell", `{"value":true}`, 400, "want a number"},
		{"tell empty body", "POST", "/api/v1/trials/1/tell", ``, 400, "empty"},
		{"tell unknown state", "POST", "/api/v1/trials/1/tell", `{"state":"DONE","value":1}`, 400, `"DONE" is not a result`},
		{"tell running state", "POST", "/api/v1/trials/1/tell", `{"state":"RUNNING","value":1}`, 400, "not a result"},
		{"tell failed with value", "POST", "/api/v1/trials/1/tell", `{"state":"FAILED","value":1}`, 400, "FAILED trial has no value"},
		{"tell reason when complete", "POST", "/api/v1/trials/1/tell", `{"value":1,"reason":"x"}`, 400, "only a FAILED trial has a reason"},
		{"tell requeue when complete", "POST", "/api/v1/trials/1/tell", `{"value":1,"requeue":true}`, 400, "only a FAILED trial can be re-queued"},
		{"tell metric string", "POST", "/api/v1/trials/1/tell", `{"value":1,"metrics":{"acc":"high"}}`, 400, "metrics.acc: want a number, got the string"},
		{"tell metric object", "POST", "/api/v1/trials/1/tell", `{"value":1,"metrics":{"acc":{}}}`, 400, "metrics.acc: want a number"},
		{"tell metric no name", "POST", "/api/v1/trials/1/tell", `{"value":1,"metrics":{"":1}}`, 400, "needs a name"},
		{"tell metrics list", "POST", "/api/v1/trials/1/tell", `{"value":1,"metrics":[1]}`, 400, `field "metrics"`},
		{"tell unknown field", "POST", "/api/v1/trials/1/tell", `{"value":1,"score":2}`, 400, `unknown field "score"`},
		{"tell finished", "POST", "/api/v1/trials/2/tell", `{"value":2}`, 409, "already finished"},
		{"tell waiting", "POST", "/api/v1/trials/3/tell", `{"value":1}`, 409, "WAITING"},

		// report and heartbeat
		{"report unknown trial", "POST", "/api/v1/trials/999/report", `{"step":1,"value":1}`, 404, "trial 999 not found"},
		{"report no step", "POST", "/api/v1/trials/1/report", `{"value":1}`, 400, "step: missing"},
		{"report step fraction", "POST", "/api/v1/trials/1/report", `{"step":1.5,"value":1}`, 400, `field "step"`},
		{"report negative step", "POST", "/api/v1/trials/1/report", `{"step":-1,"value":1}`, 400, "step: -1 is negative"},
		{"report NaN", "POST", "/api/v1/trials/1/report", `{"step":1,"value":"NaN"}`, 400, "not a finite number"},
		{"report no value", "POST", "/api/v1/trials/1/report", `{"step":1}`, 400, "value: missing"},
		{"report finished", "POST", "/api/v1/trials/2/report", `{"step":1,"value":1}`, 409, "finished"},
		{"heartbeat unknown trial", "POST", "/api/v1/trials/999/heartbeat", ``, 404, "trial 999 not found"},
		{"heartbeat finished", "POST", "/api/v1/trials/2/heartbeat", ``, 409, "finished"},
		{"heartbeat waiting", "POST", "/api/v1/trials/3/heartbeat", ``, 409, "not RUNNING"},
		{"report waiting", "POST", "/api/v1/trials/3/report", `{"step":1,"value":2}`, 409, "not RUNNING"},

		// enqueue: parameters outside the space
		{"enqueue outside", "POST", "/api/v1/studies/s/trials", `{"params":{"x":2,"k":"a"}}`, 400, "x"},
		{"enqueue bad choice", "POST", "/api/v1/studies/s/trials", `{"params":{"x":0.5,"k":"z"}}`, 400, "k"},
		{"enqueue unknown param", "POST", "/api/v1/studies/s/trials", `{"params":{"x":0.5,"k":"a","y":1}}`, 400, "unknown parameter"},
		{"enqueue missing param", "POST", "/api/v1/studies/s/trials", `{"params":{"x":0.5}}`, 400, "k"},
		{"enqueue no params", "POST", "/api/v1/studies/s/trials", `{}`, 400, "params: missing"},
		{"enqueue unknown study", "POST", "/api/v1/studies/nosuch/trials", `{"params":{}}`, 404, `study "nosuch" not found`},

		// reading
		{"trials unknown study", "GET", "/api/v1/studies/nosuch/trials", "", 404, `study "nosuch" not found`},
		{"best unknown study", "GET", "/api/v1/studies/nosuch/best", "", 404, `study "nosuch" not found`},
		{"best none complete", "GET", "/api/v1/studies/empty/best", "", 404, "no COMPLETE trial"},
		{"study unknown", "GET", "/api/v1/studies/nosuch", "", 404, `study "nosuch" not found`},

		// routing
		{"wrong method", "GET", "/api/v1/trials/1/tell", "", 405, "allowed: POST"},
		{"wrong method list", "DELETE", "/api/v1/studies", "", 405, "allowed: GET, POST"},
		{"unknown path", "GET", "/api/v2/studies", "", 404, "no such endpoint"},
	}
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{MaxBody: 1024})
			// Study s: trial 1 RUNNING, trial 2 COMPLETE, trial 3 WAITING (enqueued).
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("s", 10))
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("empty", 10))
			askOne(t, h, "s")
			must(t, h, 200, "POST", trialPath(askOne(t, h, "s"), "tell"), `{"value":1}`)
			must(t, h, 201, "POST", "/api/v1/studies/s/trials", `{"params":{"x":0.5,"k":"a"}}`)
			for _, c := range cases {
				a := call(h, c.method, c.path, c.body)
				if a.status != c.status {
					t.Errorf("%s: status %d, want %d: %s", c.name, a.status, c.status, a.body)
					continue
				}
				if msg := a.errMsg(t); !strings.Contains(msg, c.says) {
					t.Errorf("%s: error %q does not say %q", c.name, msg, c.says)
				}
			}
			// None of the bad tells changed trial 1.
			tr := must(t, h, 200, "GET", "/api/v1/studies/s/trials", "")["trials"].([]any)[0].(map[string]any)
			if tr["state"] != "RUNNING" {
				t.Errorf("trial 1 after bad input: %v", tr)
			}
		})
	}
}
