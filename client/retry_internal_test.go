package client

import (
	"context"
	"errors"
	"net/url"
	"testing"
)

// Go's transport returns "http: server closed idle connection" (an
// unexported error) for a POST written on a kept-alive connection just as
// the server closes it for being idle: its IdleTimeout, or a graceful
// shutdown, which closes idle connections first. The server never read the
// request, so every call may send it again. Against a server with a 1 ms
// IdleTimeout, about 1 POST in 3000 gets this error.
func TestServerClosedIdleIsTransient(t *testing.T) {
	err := &url.Error{Op: "Post", URL: "http://127.0.0.1:8080/api/v1/trials/1/tell",
		Err: errors.New("http: server closed idle connection")}
	if !transient(context.Background(), err) {
		t.Error("transient: false, want true")
	}
	if !notSent(context.Background(), err) {
		t.Error("notSent: false, want true")
	}
}
