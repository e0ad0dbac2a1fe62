package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzAnswer feeds arbitrary answers (status, Retry-After, body) to the
// client's ask, as a server, a proxy in front of it or another version
// could send them. It must not panic; an answer with an error status is
// an *Error with that status, a message a person can read (UTF-8, not
// empty) and a Retry-After within [0, 60s]; an ask that succeeds has no
// negative lease.
func FuzzAnswer(f *testing.F) {
	for _, s := range []struct {
		status int
		after  string
		body   string
	}{
		{200, "", `{"trials":[{"id":1,"number":0,"params":{"x":0.5,"k":"rbf","n":3}}],"pending":0,"lease_seconds":60}`},
		{200, "", `{"trials":[],"pending":2,"lease_seconds":0.5}`},
		{200, "", `{"trials":[{"id":9223372036854775807,"params":{"big":123456789012345678901234567890}}],"lease_seconds":1e300}`},
		{200, "", `{"trials":null,"lease_seconds":-1}`},
		{200, "", `{"trials":[` + "\n"},
		{404, "", `{"error":"study \"s\" not found"}`},
		{409, "", `{"error":""}`},
		{429, "5", `{"error":"busy"}`},
		{503, "120", "<html><body>x" + strings.Repeat("é", 150) + "</body></html>"},
		{502, "Wed, 21 Oct 2015 07:28:00 GMT", ""},
		{500, "-3", "\xff\xfe"},
	} {
		f.Add(s.status, s.after, []byte(s.body))
	}
	// One real server answers every input with the answer under test.
	var (
		mu     sync.Mutex
		answer struct {
			status int
			after  string
			body   []byte
		}
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", answer.after)
		w.WriteHeader(answer.status)
		_, _ = w.Write(answer.body)
	}))
	f.Cleanup(srv.Close)
	f.Fuzz(func(t *testing.T, status int, after string, body []byte) {
		// 1xx are informational (a final answer follows); 204 and 304
		// have no body.
		if status < 200 || status > 599 || status == http.StatusNoContent || status == http.StatusNotModified {
			return
		}
		// A control character makes the header malformed: the transport
		// refuses such an answer before the client reads it.
		if strings.ContainsFunc(after, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		answer.status, answer.after, answer.body = status, after, body
		c := New(srv.URL, "", WithRetry(0))
		b, err := c.Ask(context.Background(), "s", 1, "w")
		if status < 200 || status > 299 {
			var e *Error
			if !errors.As(err, &e) || e.Status != status {
				t.Fatalf("status %d: error %v", status, err)
			}
			if e.Message == "" || !utf8.ValidString(e.Message) && utf8.Valid(body) {
				t.Fatalf("status %d, body %q: message %q", status, body, e.Message)
			}
			if e.RetryAfter < 0 || e.RetryAfter > time.Minute {
				t.Fatalf("Retry-After %q: %v", after, e.RetryAfter)
			}
			return
		}
		if err == nil && b.Lease < 0 {
			t.Fatalf("body %s: lease %v", body, b.Lease)
		}
	})
}
