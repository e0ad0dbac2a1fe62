package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
)

// An ask repeated with the same request_id (a worker whose answer was
// lost) gets the trials the first one handed out, from the same replica
// or from another one over the same database, instead of new trials that
// leave the first ones running nowhere.
func TestRepeatedAskGetsTheSameTrials(t *testing.T) {
	path := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	replica := func() http.Handler {
		s, err := storage.Open(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return New(s, Options{Lease: time.Second})
	}
	a, b := replica(), replica()
	must(t, a, 201, "POST", "/api/v1/studies", studyBody("rp", 6))
	ask := func(h http.Handler, body string) []byte {
		t.Helper()
		m := call(h, "POST", "/api/v1/studies/rp/ask", body)
		if m.status != 200 {
			t.Fatalf("ask %s: %d %s", body, m.status, m.body)
		}
		var resp struct {
			Trials json.RawMessage `json:"trials"`
		}
		if err := json.Unmarshal(m.body, &resp); err != nil {
			t.Fatal(err)
		}
		return resp.Trials
	}
	first := ask(a, `{"n":2,"request_id":"r1"}`)
	if again := ask(a, `{"n":2,"request_id":"r1"}`); !bytes.Equal(again, first) {
		t.Errorf("repeated ask on the same replica:\n%s\nfirst answer:\n%s", again, first)
	}
	if other := ask(b, `{"n":2,"request_id":"r1"}`); !bytes.Equal(other, first) {
		t.Errorf("repeated ask on another replica:\n%s\nfirst answer:\n%s", other, first)
	}
	if fresh := ask(a, `{"n":1,"request_id":"r2"}`); strings.Contains(string(first), string(fresh[1:len(fresh)-1])) {
		t.Errorf("another request_id got trials of the first: %s", fresh)
	}
	count := func() int {
		return len(must(t, a, 200, "GET", "/api/v1/studies/rp/trials", "")["trials"].([]any))
	}
	if n := count(); n != 3 {
		t.Errorf("%d trials after asks for 2 (three times) and 1, want 3", n)
	}

	// Once a trial of the answer is finished the repeat is a new ask.
	var trials []struct{ ID int64 }
	if err := json.Unmarshal(first, &trials); err != nil {
		t.Fatal(err)
	}
	must(t, a, 200, "POST", trialPath(trials[0].ID, "tell"), `{"value":1}`)
	if later := ask(a, `{"n":2,"request_id":"r1"}`); bytes.Equal(later, first) {
		t.Errorf("repeat after a tell got the finished trial again: %s", later)
	}
	if n := count(); n != 5 {
		t.Errorf("%d trials, want 5", n)
	}

	if r := call(a, "POST", "/api/v1/studies/rp/ask", `{"request_id":"`+strings.Repeat("x", maxRequestID+1)+`"}`); r.status != 400 || !strings.Contains(r.errMsg(t), "request_id") {
		t.Errorf("a request_id of %d bytes: %d %s", maxRequestID+1, r.status, r.body)
	}
}

// A repeat renews the trials' lease; one that comes after the lease has
// lapsed and the trials were reaped as stale is a new ask, whose first
// trial is the re-run of the lost one.
func TestRepeatedAskAfterTheLease(t *testing.T) {
	h := New(storeFor(t), Options{Lease: 100 * time.Millisecond})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("lp", 4))
	first := must(t, h, 200, "POST", "/api/v1/studies/lp/ask", `{"request_id":"r"}`)["trials"].([]any)[0].(map[string]any)
	for range 3 {
		time.Sleep(60 * time.Millisecond)
		again := must(t, h, 200, "POST", "/api/v1/studies/lp/ask", `{"request_id":"r"}`)["trials"].([]any)[0].(map[string]any)
		if again["id"] != first["id"] {
			t.Fatalf("repeat within the renewed lease got trial %v, want %v", again["id"], first["id"])
		}
	}
	time.Sleep(150 * time.Millisecond)
	must(t, h, 200, "POST", "/api/v1/studies/lp/ask", `{"request_id":"other"}`) // reaps the stale trial
	late := must(t, h, 200, "POST", "/api/v1/studies/lp/ask", `{"request_id":"r"}`)["trials"].([]any)[0].(map[string]any)
	if late["id"] == first["id"] {
		t.Errorf("repeat after the trial was reaped got it again: %v", late)
	}
}

// TestAnswersKeptPerWorker: a named worker's next ask replaces its kept
// answer, so a study keeps one answer per worker however many asks there
// were; its latest ask still gets its trials again, an earlier one is a
// new ask. An unnamed worker's answers are kept by request_id.
func TestAnswersKeptPerWorker(t *testing.T) {
	store := storeFor(t)
	h := New(store, Options{Lease: time.Minute})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("kw", 40))
	id := func(body string) any {
		t.Helper()
		return must(t, h, 200, "POST", "/api/v1/studies/kw/ask", body)["trials"].([]any)[0].(map[string]any)["id"]
	}
	var last any
	for i := range 10 {
		last = id(fmt.Sprintf(`{"worker":"w1","request_id":"r%d"}`, i))
	}
	studies, err := store.ListStudies(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	sid := studies[0].ID
	for i := range 10 {
		if _, err := store.GetState(t.Context(), sid, fmt.Sprintf("ask/r%d", i)); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the answer of a named worker's ask r%d is kept by its request_id: %v", i, err)
		}
	}
	kept, err := store.GetState(t.Context(), sid, "ask/worker/w1")
	if err != nil || !strings.Contains(string(kept), `"request_id":"r9"`) {
		t.Errorf("the kept answer of w1: %s, %v; want that of r9", kept, err)
	}
	if again := id(`{"worker":"w1","request_id":"r9"}`); again != last {
		t.Errorf("a repeat of w1's latest ask got trial %v, want %v", again, last)
	}
	if again := id(`{"worker":"w1","request_id":"r8"}`); again == last {
		t.Errorf("a repeat of an earlier ask got the latest ask's trial %v", again)
	}
	unnamed := id(`{"request_id":"u1"}`)
	if _, err := store.GetState(t.Context(), sid, "ask/u1"); err != nil {
		t.Errorf("an unnamed worker's answer: %v", err)
	}
	if again := id(`{"request_id":"u1"}`); again != unnamed {
		t.Errorf("an unnamed worker's repeat got trial %v, want %v", again, unnamed)
	}
}
