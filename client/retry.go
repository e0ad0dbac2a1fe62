package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
)

// transient reports whether err may go away if the request is sent again:
// the server is restarting or overloaded, a proxy lost it, or the network
// dropped the connection. A 4xx never does: the request itself is wrong.
func transient(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var e *Error
	if errors.As(err, &e) {
		switch e.Status {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return true
		}
		return false
	}
	var op *net.OpError
	var ne net.Error
	switch {
	case serverClosedIdle(err):
		return true
	case errors.Is(err, errAttempt),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.As(err, &op):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	}
	return false
}

// notSent reports whether err is transient and the request cannot have
// reached a handler: the connection was refused (the server is
// restarting), or the server answered that it did not take it (429). A
// reset, a response cut short, a timeout, a proxy's 502 or 504, and a 503
// may come after the server acted on the request: boa serve answers 503
// when its database dropped the connection, which may be after a commit.
func notSent(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Status == http.StatusTooManyRequests
	}
	var op *net.OpError
	return errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &op) && op.Op == "dial" || serverClosedIdle(err)
}

// serverClosedIdle reports Go's transport error for a request written on a
// kept-alive connection just as the server closed it for being idle (its
// IdleTimeout, or a graceful shutdown; golang.org/issue/19943). The
// server never read the request. The error is not exported, hence the
// text.
func serverClosedIdle(err error) bool {
	return strings.Contains(err.Error(), "http: server closed idle connection")
}
