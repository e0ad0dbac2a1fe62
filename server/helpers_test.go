package server

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
)

// backends returns the storages every HTTP test runs against: memory and
// an SQLite file.
func backends(t *testing.T) map[string]func(t *testing.T) storage.Storage {
	return map[string]func(t *testing.T) storage.Storage{
		"memory": func(t *testing.T) storage.Storage { return storage.NewMemory() },
		"sqlite": func(t *testing.T) storage.Storage {
			s, err := storage.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
}

// storeFor returns an SQLite storage in t's temporary folder.
func storeFor(t *testing.T) storage.Storage { return backends(t)["sqlite"](t) }

// testLogger logs to t.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, nil))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// studyBody is a small valid study file as JSON.
func studyBody(name string, budget int) string {
	return `{"name":"` + name + `","sampler":"random","seed":1,"trials":` + itoa(budget) + `,
	  "space":{"x":{"type":"float","low":0,"high":1},"k":{"type":"categorical","choices":["a","b"]}}}`
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// answer is a response as a test sees it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(a.body, &m); err != nil {
		t.Fatalf("status %d: body is not a JSON object: %v\n%s", a.status, err, a.body)
	}
	return m
}

func (a answer) errMsg(t *testing.T) string {
	t.Helper()
	msg, _ := a.json(t)["error"].(string)
	return msg
}

// call sends one request to h.
func call(h http.Handler, method, path, body string, header ...string) answer {
	var rd *bytes.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	} else {
		rd = bytes.NewReader(nil)
	}
	r := httptest.NewRequest(method, path, rd)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return answer{status: w.Code, header: w.Header(), body: w.Body.Bytes()}
}

// must sends a request that must answer want.
func must(t *testing.T, h http.Handler, want int, method, path, body string) map[string]any {
	t.Helper()
	a := call(h, method, path, body)
	if a.status != want {
		t.Fatalf("%s %s %s: status %d, want %d: %s", method, path, body, a.status, want, a.body)
	}
	if a.status == http.StatusNoContent {
		return nil
	}
	return a.json(t)
}

// askOne asks study for one trial and returns its id.
func askOne(t *testing.T, h http.Handler, study string) int64 {
	t.Helper()
	m := must(t, h, 200, "POST", "/api/v1/studies/"+study+"/ask", `{"worker":"test"}`)
	trials := m["trials"].([]any)
	if len(trials) != 1 {
		t.Fatalf("ask: %d trials, want 1: %v", len(trials), m)
	}
	return int64(trials[0].(map[string]any)["id"].(float64))
}

func trialPath(id int64, op string) string {
	return "/api/v1/trials/" + strings.TrimSpace(itoa(int(id))) + "/" + op
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
