package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLifecycle(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			created := must(t, h, 201, "POST", "/api/v1/studies", studyBody("demo", 4))
			if created["name"] != "demo" || created["budget"] != 4.0 || created["best_value"] != nil {
				t.Fatalf("created: %v", created)
			}
			if _, ok := created["auto_choice"]; ok {
				t.Errorf("a random study has an auto_choice: %v", created)
			}
			auto := must(t, h, 201, "POST", "/api/v1/studies", strings.Replace(studyBody("auto", 4), `"random"`, `"Auto"`, 1))
			if auto["auto_choice"] != "cocabo" {
				t.Errorf("auto on a float and a 2-level categorical: auto_choice %v, want cocabo", auto["auto_choice"])
			}

			asked := must(t, h, 200, "POST", "/api/v1/studies/demo/ask", `{"n":3,"worker":"w1"}`)
			trials := asked["trials"].([]any)
			if len(trials) != 3 || asked["lease_seconds"] != 30.0 {
				t.Fatalf("ask: %v", asked)
			}
			ids := make([]int64, 3)
			batch := trials[0].(map[string]any)["batch"]
			for i, tr := range trials {
				m := tr.(map[string]any)
				ids[i] = int64(m["id"].(float64))
				p := m["params"].(map[string]any)
				if x := p["x"].(float64); x < 0 || x > 1 || (p["k"] != "a" && p["k"] != "b") || m["number"] != float64(i) {
					t.Fatalf("trial %d: %v", i, m)
				}
				if b, ok := m["batch"].(float64); !ok || b < 1 || m["batch"] != batch {
					t.Fatalf("trial %d: batch %v, want the batch number %v the ask's trials share", i, m["batch"], batch)
				}
			}

			must(t, h, 204, "POST", trialPath(ids[0], "heartbeat"), "")
			for step, v := range []float64{0.9, 0.7} {
				// A study without a pruner never says prune.
				if r := must(t, h, 200, "POST", trialPath(ids[0], "report"), fmt.Sprintf(`{"step":%d,"value":%v}`, step+1, v)); r["prune"] != false {
					t.Fatalf("report answered %v, want prune false", r)
				}
			}
			told := must(t, h, 200, "POST", trialPath(ids[0], "tell"), `{"value":0.25,"metrics":{"acc":0.9}}`)
			if told["state"] != "COMPLETE" || told["value"] != 0.25 {
				t.Fatalf("tell: %v", told)
			}
			// A retried tell with the same result succeeds again; another result is refused.
			must(t, h, 200, "POST", trialPath(ids[0], "tell"), `{"metrics":{"acc":0.9},"value":0.25}`)
			if a := call(h, "POST", trialPath(ids[0], "tell"), `{"value":0.3}`); a.status != 409 || !strings.Contains(a.errMsg(t), "already finished") {
				t.Fatalf("different tell: %d %s", a.status, a.body)
			}
			if a := call(h, "POST", trialPath(ids[0], "tell"), `{"value":0.25,"metrics":{"acc":0.8}}`); a.status != 409 || !strings.Contains(a.errMsg(t), "COMPLETE with value 0.25 and metrics acc=0.9;") {
				t.Fatalf("tell with other metrics: %d %s", a.status, a.body)
			}
			must(t, h, 200, "POST", trialPath(ids[1], "tell"), `{"state":"PRUNED","value":0.8}`)
			must(t, h, 200, "POST", trialPath(ids[2], "tell"), `{"state":"FAILED","reason":"exit code 1: boom"}`)
			must(t, h, 200, "POST", trialPath(ids[2], "tell"), `{"state":"failed","reason":"exit code 1: boom"}`)
			for _, op := range []string{"heartbeat", "report"} {
				if a := call(h, "POST", trialPath(ids[0], op), `{"step":3,"value":1}`); a.status != 409 {
					t.Errorf("%s of a finished trial: %d %s", op, a.status, a.body)
				}
			}

			all := must(t, h, 200, "GET", "/api/v1/studies/demo/trials", "")["trials"].([]any)
			if len(all) != 3 {
				t.Fatalf("trials: %v", all)
			}
			first := all[0].(map[string]any)
			for _, key := range []string{"id", "number", "state", "params", "value", "metrics", "reports", "reason", "worker", "started", "finished", "retry_of", "batch", "origin"} {
				if _, ok := first[key]; !ok {
					t.Errorf("trial JSON lacks %q: %v", key, first)
				}
			}
			if first["worker"] != "w1" || first["retry_of"] != nil || first["batch"] != batch || first["origin"] != "design" || len(first["reports"].([]any)) != 2 || first["metrics"].(map[string]any)["acc"] != 0.9 {
				t.Errorf("trial 0: %v", first)
			}
			if f := all[2].(map[string]any); f["state"] != "FAILED" || f["reason"] != "exit code 1: boom" || f["value"] != nil {
				t.Errorf("trial 2: %v", f)
			}

			best := must(t, h, 200, "GET", "/api/v1/studies/demo/best", "")
			if best["number"] != 0.0 || best["value"] != 0.25 {
				t.Errorf("best: %v", best)
			}
			list := must(t, h, 200, "GET", "/api/v1/studies", "")["studies"].([]any)
			var s map[string]any
			for _, st := range list {
				if st.(map[string]any)["name"] == "demo" {
					s = st.(map[string]any)
				}
			}
			if len(list) != 2 || s == nil || s["trials"] != 3.0 || s["best_value"] != 0.25 || s["states"].(map[string]any)["PRUNED"] != 1.0 {
				t.Errorf("studies: %v", list)
			}

			// One trial of the budget is left; then ask answers an empty list.
			askOne(t, h, "demo")
			empty := must(t, h, 200, "POST", "/api/v1/studies/demo/ask", "")
			if len(empty["trials"].([]any)) != 0 || empty["pending"] != 1.0 {
				t.Errorf("ask past the budget: %v", empty)
			}
		})
	}
}

func TestMaximizeBest(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			body := strings.Replace(studyBody("max", 0), `"sampler"`, `"direction":"maximize","sampler"`, 1)
			must(t, h, 201, "POST", "/api/v1/studies", body)
			for _, v := range []string{"1", "5", "3"} {
				must(t, h, 200, "POST", trialPath(askOne(t, h, "max"), "tell"), `{"value":`+v+`}`)
			}
			if b := must(t, h, 200, "GET", "/api/v1/studies/max/best", ""); b["value"] != 5.0 {
				t.Errorf("best of a maximised study: %v", b)
			}
		})
	}
}

// A study's transform is kept and shown; a value the transform cannot
// take is refused with a 400 that says why, and the trial stays RUNNING
// for the client to tell it FAILED.
func TestTransform(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			body := strings.Replace(studyBody("logged", 0), `"sampler"`, `"transform":"log","sampler"`, 1)
			if m := must(t, h, 201, "POST", "/api/v1/studies", body); m["transform"] != "log" {
				t.Errorf("created study: %v", m)
			}
			if m := must(t, h, 201, "POST", "/api/v1/studies", studyBody("plain", 0)); m["transform"] != nil {
				t.Errorf("a study without a transform shows one: %v", m)
			}
			id := askOne(t, h, "logged")
			a := call(h, "POST", trialPath(id, "tell"), `{"value":0}`)
			if msg := a.errMsg(t); a.status != 400 || msg != `value: 0 cannot be recorded in study "logged": transform log needs values > 0` {
				t.Errorf("tell 0 to a log study: %d %q", a.status, msg)
			}
			must(t, h, 200, "POST", trialPath(id, "tell"), `{"state":"FAILED","reason":"loss 0 is not > 0"}`)
			must(t, h, 200, "POST", trialPath(askOne(t, h, "logged"), "tell"), `{"value":0.25}`)
			if b := must(t, h, 200, "GET", "/api/v1/studies/logged/best", ""); b["value"] != 0.25 {
				t.Errorf("best: %v", b)
			}
			bad := strings.Replace(studyBody("bad", 0), `"sampler"`, `"transform":"sqrt","sampler"`, 1)
			if a := call(h, "POST", "/api/v1/studies", bad); a.status != 400 || !strings.Contains(a.errMsg(t), "sqrt") {
				t.Errorf("unknown transform: %d %s", a.status, a.body)
			}
		})
	}
}

// An interrupted trial told with requeue comes back once, with retry_of.
func TestRequeue(t *testing.T) {
	h := New(storeFor(t), Options{})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("rq", 2))
	id := askOne(t, h, "rq")
	must(t, h, 200, "POST", trialPath(id, "tell"), `{"state":"FAILED","reason":"interrupted","requeue":true}`)
	m := must(t, h, 200, "POST", "/api/v1/studies/rq/ask", `{"n":5}`)
	trials := m["trials"].([]any)
	if len(trials) != 2 {
		t.Fatalf("after a re-queue, ask gives %d trials, want 2 (the re-run and the last of the budget): %v", len(trials), m)
	}
	retry, fresh := trials[0].(map[string]any), trials[1].(map[string]any)
	if retry["retry_of"] != 0.0 {
		t.Errorf("first trial handed out is not the re-run of trial 0: %v", retry)
	}
	// The re-run keeps the batch of the trial it repeats; the new trial
	// has a batch of its own.
	all := must(t, h, 200, "GET", "/api/v1/studies/rq/trials", "")["trials"].([]any)
	if b := all[0].(map[string]any)["batch"]; b == nil || retry["batch"] != b || fresh["batch"] == nil || fresh["batch"] == b {
		t.Errorf("batches: trial 0 %v, its re-run %v, the new trial %v", b, retry["batch"], fresh["batch"])
	}
}

// A trial without heartbeats for longer than the lease is FAILED (stale)
// at the next ask and its configuration handed out again.
func TestStaleLease(t *testing.T) {
	h := New(storeFor(t), Options{Lease: 50 * time.Millisecond})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("st", 1))
	askOne(t, h, "st")
	if m := must(t, h, 200, "POST", "/api/v1/studies/st/ask", ""); len(m["trials"].([]any)) != 0 || m["pending"] != 1.0 {
		t.Fatalf("ask within the lease: %v", m)
	}
	time.Sleep(80 * time.Millisecond)
	m := must(t, h, 200, "POST", "/api/v1/studies/st/ask", "")
	if tr := m["trials"].([]any); len(tr) != 1 || tr[0].(map[string]any)["retry_of"] != 0.0 {
		t.Fatalf("ask after the lease: %v", m)
	}
	all := must(t, h, 200, "GET", "/api/v1/studies/st/trials", "")["trials"].([]any)
	if r, _ := all[0].(map[string]any)["reason"].(string); !strings.HasPrefix(r, "stale") {
		t.Errorf("lost trial's reason %q, want stale...", r)
	}
}

func TestEnqueue(t *testing.T) {
	h := New(storeFor(t), Options{})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("eq", 2))
	q := must(t, h, 201, "POST", "/api/v1/studies/eq/trials", `{"params":{"x":0.125,"k":"b"}}`)
	if q["state"] != "WAITING" || q["batch"] != nil || q["origin"] != "user" {
		t.Fatalf("enqueue: %v", q)
	}
	m := must(t, h, 200, "POST", "/api/v1/studies/eq/ask", "")
	p := m["trials"].([]any)[0].(map[string]any)["params"].(map[string]any)
	if p["x"] != 0.125 || p["k"] != "b" {
		t.Errorf("ask after enqueue gave %v, want the enqueued params", p)
	}
	must(t, h, 201, "POST", "/api/v1/studies/eq/trials", `{"params":{"x":0.5,"k":"a"}}`)
	if a := call(h, "POST", "/api/v1/studies/eq/trials", `{"params":{"x":0.5,"k":"a"}}`); a.status != 409 {
		t.Errorf("enqueue past the budget: %d %s", a.status, a.body)
	}
}

func TestAuth(t *testing.T) {
	h := New(storeFor(t), Options{Token: "s3cret"})
	cases := []struct {
		header string
		want   int
	}{
		{"", 401},
		{"Bearer wrong", 401},
		{"Bearer s3cret2", 401},
		{"Basic s3cret", 401},
		{"s3cret", 401},
		{"Bearer s3cret", 200},
		{"bearer s3cret", 200},
	}
	for _, c := range cases {
		var a answer
		if c.header == "" {
			a = call(h, "GET", "/api/v1/studies", "")
		} else {
			a = call(h, "GET", "/api/v1/studies", "", "Authorization", c.header)
		}
		if a.status != c.want {
			t.Errorf("Authorization %q: status %d, want %d: %s", c.header, a.status, c.want, a.body)
		}
		if a.status == 401 && (a.errMsg(t) == "" || a.header.Get("WWW-Authenticate") == "") {
			t.Errorf("401 without a JSON error or WWW-Authenticate: %v %s", a.header, a.body)
		}
	}
	if a := call(h, "POST", "/api/v1/studies/x/ask", `{}`); a.status != 401 {
		t.Errorf("ask without a token: %d", a.status)
	}
	if a := call(h, "GET", "/healthz", ""); a.status != 200 {
		t.Errorf("healthz needs no token, got %d", a.status)
	}
}

func TestRecoverer(t *testing.T) {
	s := &server{log: testLogger(t)}
	h := s.recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("bug") }))
	a := call(h, "GET", "/", "")
	if a.status != 500 || !strings.Contains(a.errMsg(t), "internal error") {
		t.Errorf("panic answered %d %s", a.status, a.body)
	}
}

// TestMotifs: GET /api/v1/studies/{name}/motifs scores the motifs of a NAS
// study's completed cells; a study that is no cell is a 400, one with
// too few completed trials a 404, a bad min_trials a 400.
func TestMotifs(t *testing.T) {
	h := New(storeFor(t), Options{})
	ops := `{"type":"categorical","choices":["none","skip_connect","nor_conv_1x1","nor_conv_3x3","avg_pool_3x3"]}`
	var edges []string
	for _, e := range []string{"1_0", "2_0", "2_1", "3_0", "3_1", "3_2"} {
		edges = append(edges, `"edge_`+e+`":`+ops)
	}
	must(t, h, 201, "POST", "/api/v1/studies", `{"name":"cells","sampler":"nasbowl","seed":2,"trials":40,"space":{`+strings.Join(edges, ",")+`}}`)
	if a := call(h, "GET", "/api/v1/studies/cells/motifs", ""); a.status != 404 {
		t.Errorf("no trials: status %d: %s", a.status, a.body)
	}
	for range 30 {
		m := must(t, h, 200, "POST", "/api/v1/studies/cells/ask", `{"worker":"w"}`)
		tr := m["trials"].([]any)[0].(map[string]any)
		v := 10.0
		for _, op := range tr["params"].(map[string]any) {
			if op == "nor_conv_3x3" {
				v--
			}
		}
		must(t, h, 200, "POST", trialPath(int64(tr["id"].(float64)), "tell"), `{"value":`+strconv.FormatFloat(v, 'g', -1, 64)+`}`)
	}
	m := must(t, h, 200, "GET", "/api/v1/studies/cells/motifs?min_trials=5", "")
	ms := m["motifs"].([]any)
	if len(ms) == 0 {
		t.Fatalf("no motifs: %v", m)
	}
	first := ms[0].(map[string]any)
	if !strings.Contains(first["motif"].(string), "nor_conv_3x3") || first["score"].(float64) >= 0 {
		t.Errorf("most helpful motif %v: want one with nor_conv_3x3 and a negative score", first)
	}
	if a := call(h, "GET", "/api/v1/studies/cells/motifs?min_trials=-1", ""); a.status != 400 {
		t.Errorf("min_trials=-1: status %d", a.status)
	}
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("plain", 4))
	if a := call(h, "GET", "/api/v1/studies/plain/motifs", ""); a.status != 400 || !strings.Contains(a.errMsg(t), "edge_j_i") {
		t.Errorf("a study that is no cell: status %d: %s", a.status, a.body)
	}
}
