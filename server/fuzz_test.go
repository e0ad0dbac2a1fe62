package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/boaopt/boa/storage"
)

// FuzzHandler feeds arbitrary methods, paths and bodies to the handler
// over a study with a running trial (id 1) and a finished one (id 2). The
// handler must not panic (the recoverer would answer 500), must never
// answer a 5xx to client garbage, and must always answer JSON.
func FuzzHandler(f *testing.F) {
	seeds := []struct{ method, path, body string }{
		{"POST", "/api/v1/studies", studyBody("new", 3)},
		{"POST", "/api/v1/studies", `{"name":"x","space":{"a":{"type":"int","low":1,"high":3,"log":true}}}`},
		{"GET", "/api/v1/studies", ""},
		{"GET", "/api/v1/studies/s", ""},
		{"POST", "/api/v1/studies/s/ask", `{"n":2,"worker":"w"}`},
		{"POST", "/api/v1/studies/s/ask", `{"n":-1}`},
		{"POST", "/api/v1/studies/s/ask", `{"n":1,"request_id":"r1"}`},
		{"POST", "/api/v1/studies/s/trials", `{"params":{"x":0.5,"k":"a"}}`},
		{"POST", "/api/v1/studies/s/trials", `{"params":{"x":1e308,"k":[]}}`},
		{"GET", "/api/v1/studies/s/trials", ""},
		{"GET", "/api/v1/studies/s/best", ""},
		{"POST", "/api/v1/trials/1/tell", `{"value":0.5,"metrics":{"m":1}}`},
		{"POST", "/api/v1/trials/1/tell", `{"state":"FAILED","reason":"x\u0000y","requeue":true}`},
		{"POST", "/api/v1/trials/1/tell", `{"state":"PRUNED","value":"NaN"}`},
		{"POST", "/api/v1/trials/2/tell", `{"value":1}`},
		{"POST", "/api/v1/trials/1/report", `{"step":9223372036854775807,"value":-0}`},
		{"POST", "/api/v1/trials/1/heartbeat", ``},
		{"POST", "/api/v1/trials/99999999999999999999/heartbeat", ``},
		{"GET", "/api/v1/studies/%2e%2e/trials", ""},
		{"PUT", "/api/v1//studies/", "{"},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, method, path string, body []byte) {
		r, err := http.NewRequest(method, "http://boa.test"+path, bytes.NewReader(body))
		if err != nil || r.URL.Host != "boa.test" {
			return // not an HTTP request a client could send
		}
		r.RequestURI = r.URL.RequestURI()
		h := New(fixture(t), Options{MaxBody: 4096})
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code >= 500 {
			t.Fatalf("%s %q %q: status %d: %s", method, path, body, w.Code, w.Body)
		}
		if w.Code != http.StatusNoContent && method != http.MethodHead && !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %q %q: status %d, body is not JSON: %q", method, path, body, w.Code, w.Body)
		}
	})
}

// fixture is a memory storage with study s (random sampler, budget 5),
// trial 1 RUNNING and trial 2 COMPLETE.
func fixture(t *testing.T) storage.Storage {
	store := storage.NewMemory()
	h := New(store, Options{})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("s", 5))
	askOne(t, h, "s")
	must(t, h, 200, "POST", trialPath(askOne(t, h, "s"), "tell"), `{"value":1}`)
	return store
}
