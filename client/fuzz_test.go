package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

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
	f.Fuzz(func(t *testing.T, status int, after string, body []byte) {
		if status < 100 || status > 999 || status == http.StatusNoContent {
			return
		}
		rt := roundTripper(func(r *http.Request) (*http.Response, error) {
			h := http.Header{}
			h.Set("Retry-After", after)
			return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
		})
		c := New("http://boa.test", "", WithHTTPClient(&http.Client{Transport: rt}), WithRetry(0))
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
