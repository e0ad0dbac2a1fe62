package server

import (
	"strings"
	"testing"
)

func TestDeleteStudy(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{})
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("demo", 4))
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("other", 4))
			asked := must(t, h, 200, "POST", "/api/v1/studies/demo/ask", `{"n":2}`)
			id := int64(asked["trials"].([]any)[0].(map[string]any)["id"].(float64))
			must(t, h, 200, "GET", "/api/v1/studies/demo/analysis?kind=summary", "")

			got := must(t, h, 200, "DELETE", "/api/v1/studies/demo", "")
			if got["deleted"] != "demo" || got["trials"] != 2.0 {
				t.Errorf("DELETE answered %v, want deleted demo with 2 trials", got)
			}
			for _, c := range []struct{ method, path, body string }{
				{"GET", "/api/v1/studies/demo", ""},
				{"DELETE", "/api/v1/studies/demo", ""},
				{"POST", "/api/v1/studies/demo/ask", `{"n":1}`},
				{"POST", trialPath(id, "tell"), `{"value":1}`},
				{"POST", trialPath(id, "heartbeat"), ""},
			} {
				if a := call(h, c.method, c.path, c.body); a.status != 404 || a.errMsg(t) == "" {
					t.Errorf("%s %s after the delete: %d %s, want a 404 with an error", c.method, c.path, a.status, a.body)
				}
			}
			if list := must(t, h, 200, "GET", "/api/v1/studies", "")["studies"].([]any); len(list) != 1 || list[0].(map[string]any)["name"] != "other" {
				t.Errorf("studies after the delete: %v", list)
			}
			// The name is free again, for a study that starts from nothing.
			must(t, h, 201, "POST", "/api/v1/studies", studyBody("demo", 4))
			again := must(t, h, 200, "POST", "/api/v1/studies/demo/ask", `{"n":1}`)
			if tr := again["trials"].([]any)[0].(map[string]any); tr["number"] != 0.0 {
				t.Errorf("first trial of the re-created study: %v, want number 0", tr)
			}
		})
	}
}

// TestDeleteStudyElsewhere: a server that has a study cached sees it
// deleted and re-created by another server sharing the database.
func TestDeleteStudyElsewhere(t *testing.T) {
	store := storeFor(t)
	a, b := New(store, Options{}), New(store, Options{})
	must(t, a, 201, "POST", "/api/v1/studies", studyBody("demo", 4))
	must(t, a, 200, "POST", "/api/v1/studies/demo/ask", `{"n":3}`)
	must(t, b, 200, "DELETE", "/api/v1/studies/demo", "")
	if a := call(a, "POST", "/api/v1/studies/demo/ask", `{"n":1}`); a.status != 404 {
		t.Errorf("ask of a study deleted elsewhere: %d %s, want 404", a.status, a.body)
	}
	must(t, b, 201, "POST", "/api/v1/studies", studyBody("demo", 4))
	got := must(t, a, 200, "POST", "/api/v1/studies/demo/ask", `{"n":1}`)
	if tr := got["trials"].([]any)[0].(map[string]any); tr["number"] != 0.0 {
		t.Errorf("ask of a study re-created elsewhere: %v, want its trial number 0", tr)
	}
}

func TestDeleteStudyReadOnly(t *testing.T) {
	store := storeFor(t)
	must(t, New(store, Options{}), 201, "POST", "/api/v1/studies", studyBody("demo", 4))
	a := call(New(store, Options{ReadOnly: true}), "DELETE", "/api/v1/studies/demo", "")
	if a.status != 403 || !strings.Contains(a.errMsg(t), "read-only") {
		t.Errorf("DELETE on a read-only server: %d %s, want 403", a.status, a.body)
	}
}
