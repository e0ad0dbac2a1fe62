package client_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
)

// loseFirst runs the first request whose path ends in suffix on the real
// handler, so that the server acts on it, then drops the connection
// instead of answering: the client cannot know whether it was done.
func loseFirst(suffix string, lost *atomic.Bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == "POST" && strings.HasSuffix(r.URL.Path, suffix) && lost.CompareAndSwap(false, true) {
				next.ServeHTTP(httptest.NewRecorder(), r)
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// An enqueue whose answer is lost is not sent again: the server may have
// added the trial, and a second one would run the configuration twice.
func TestEnqueueIsNotRetriedBlindly(t *testing.T) {
	ctx := context.Background()
	var lost atomic.Bool
	c := newClient(serve(t, "", loseFirst("/trials", &lost)), "")
	if _, err := c.CreateStudy(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	_, err := c.Enqueue(ctx, "demo", map[string]any{"lr": 0.01, "layers": 2})
	if !lost.Load() {
		t.Fatal("the first answer was not dropped")
	}
	if err == nil {
		t.Error("enqueue whose answer was lost: no error")
	}
	trials, err := c.Trials(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 1 {
		t.Errorf("%d trials after one enqueue, want 1", len(trials))
	}
}

// A create whose answer is lost is not sent again: the retry would find
// the study the first attempt created and report the name as taken (409).
func TestCreateIsNotRetriedBlindly(t *testing.T) {
	var lost atomic.Bool
	c := newClient(serve(t, "", loseFirst("/studies", &lost)), "")
	_, err := c.CreateStudy(context.Background(), []byte(spec))
	if !lost.Load() {
		t.Fatal("the first answer was not dropped")
	}
	if err == nil || client.StatusOf(err) == http.StatusConflict {
		t.Errorf("create whose answer was lost: %v; want the network error, not a 409", err)
	}
}

// Both are still retried when the request cannot have reached the server
// (429, connection refused), but not after a 503, which boa serve answers
// when its database dropped the connection, perhaps after the write.
func TestEnqueueRetriedWhenNotSent(t *testing.T) {
	var calls atomic.Int32
	c := newClient(serve(t, "", failFirst(1, http.StatusTooManyRequests, &calls)), "")
	if _, err := c.CreateStudy(context.Background(), []byte(spec)); err != nil {
		t.Errorf("create after a 429: %v", err)
	}
	if calls.Load() != 2 {
		t.Errorf("%d attempts, want 2", calls.Load())
	}
	calls.Store(0)
	c = newClient(serve(t, "", failFirst(1, http.StatusServiceUnavailable, &calls)), "")
	if _, err := c.CreateStudy(context.Background(), []byte(spec)); client.StatusOf(err) != http.StatusServiceUnavailable || calls.Load() != 1 {
		t.Errorf("create after a 503: %v after %d attempts; want the 503 after 1", err, calls.Load())
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // connection refused
	var retries atomic.Int32
	c = newClient(url, "", client.WithRetry(300*time.Millisecond),
		client.WithOnRetry(func(error, time.Duration) { retries.Add(1) }))
	if _, err := c.Enqueue(context.Background(), "demo", map[string]any{"lr": 0.01}); err == nil || retries.Load() < 1 {
		t.Errorf("enqueue to a refused port: %v after %d retries; want retries", err, retries.Load())
	}
}

// An ask whose answer is lost is sent again with the same request_id and
// gets the trial the server handed out to the first attempt: the study
// holds one trial, RUNNING, not one running nowhere and a second one.
func TestAskRetryGetsTheSameTrial(t *testing.T) {
	ctx := context.Background()
	var lost atomic.Bool
	c := newClient(serve(t, "", loseFirst("/ask", &lost)), "")
	if _, err := c.CreateStudy(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	b, err := c.Ask(ctx, "demo", 1, "w")
	if !lost.Load() {
		t.Fatal("the first answer was not dropped")
	}
	if err != nil || len(b.Trials) != 1 {
		t.Fatalf("ask whose first answer was lost: %+v, %v", b, err)
	}
	trials, err := c.Trials(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 1 || trials[0].ID != b.Trials[0].ID || trials[0].State != "RUNNING" {
		t.Errorf("after one ask whose answer was lost: trials %+v, want only the one handed out (%d)", trials, b.Trials[0].ID)
	}
	// A second Ask is another request: it gets another trial.
	b2, err := c.Ask(ctx, "demo", 1, "w")
	if err != nil || len(b2.Trials) != 1 || b2.Trials[0].ID == b.Trials[0].ID {
		t.Errorf("a second ask: %+v, %v; want a new trial", b2, err)
	}
}
