package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Defaults of the options.
const (
	DefaultRetry   = 2 * time.Minute // total time spent retrying one call
	DefaultAttempt = 2 * time.Minute // one attempt (an ask may wait for another process's suggestion)
	firstWait      = 100 * time.Millisecond
	maxWait        = 10 * time.Second
)

// Client talks to one boa server. It is safe for concurrent use.
type Client struct {
	base    string
	token   string
	http    *http.Client
	retry   time.Duration
	attempt time.Duration
	onRetry func(err error, wait time.Duration)

	mu  sync.Mutex // guards rng
	rng *rand.Rand
}

// Option configures New.
type Option func(*Client)

// WithHTTPClient sets the HTTP client (default: http.DefaultClient's
// transport, no overall timeout; attempts are bounded by WithAttempt).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithRetry bounds the time one call spends retrying transient failures;
// 0 turns retries off.
func WithRetry(total time.Duration) Option { return func(c *Client) { c.retry = max(total, 0) } }

// WithAttempt bounds one attempt (default DefaultAttempt); an attempt that
// runs out of time is retried like a lost connection.
func WithAttempt(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.attempt = d
		}
	}
}

// WithOnRetry calls f before each wait between attempts, with the failure
// and the wait (e.g. to log "server unreachable, retrying in 2s").
func WithOnRetry(f func(err error, wait time.Duration)) Option {
	return func(c *Client) { c.onRetry = f }
}

// WithRand sets the source of the backoff jitter. The default is seeded
// from the clock and the process id: the point of jitter is that workers
// differ.
func WithRand(r *rand.Rand) Option { return func(c *Client) { c.rng = r } }

// New returns a client of the server at baseURL (e.g.
// "http://10.0.0.5:8080"); token, when not empty, is sent as a bearer
// token.
func New(baseURL, token string, opts ...Option) *Client {
	c := &Client{
		base:    strings.TrimRight(baseURL, "/"),
		token:   token,
		http:    &http.Client{},
		retry:   DefaultRetry,
		attempt: DefaultAttempt,
	}
	for _, o := range opts {
		o(c)
	}
	if c.rng == nil {
		c.rng = rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(os.Getpid())))
	}
	return c
}

// Error is a response with a status other than 2xx.
type Error struct {
	Method, Path string
	Status       int
	Message      string        // the server's {"error": ...}, or the start of a body that is not JSON
	RetryAfter   time.Duration // from a Retry-After header, if any
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Message)
}

// StatusOf returns the HTTP status of err if it is (or wraps) an *Error,
// else 0.
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// do sends the request, retrying transient failures, and decodes a 2xx
// JSON answer into out (when out is not nil).
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	return c.send(ctx, method, path, body, out, transient)
}

// doOnce is do for a request the server must not act on twice (create a
// study, enqueue a trial): it is retried only when it cannot have reached
// the server, never after a lost answer.
func (c *Client) doOnce(ctx context.Context, method, path string, body, out any) error {
	return c.send(ctx, method, path, body, out, notSent)
}

func (c *Client) send(ctx context.Context, method, path string, body, out any, retry func(context.Context, error) bool) error {
	var payload []byte
	if body != nil {
		var err error
		if raw, ok := body.([]byte); ok {
			payload = raw
		} else if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("%s %s: encoding the request: %w", method, path, err)
		}
	}
	start := time.Now()
	wait := firstWait
	for attempt := 1; ; attempt++ {
		err := c.once(ctx, method, path, payload, out)
		if err == nil || !retry(ctx, err) {
			return err
		}
		d := c.jitter(wait)
		var e *Error
		if errors.As(err, &e) && e.RetryAfter > 0 {
			d = e.RetryAfter
		}
		if time.Since(start)+d > c.retry {
			if c.retry == 0 {
				return err
			}
			return fmt.Errorf("%w (gave up after %d attempts in %v)", err, attempt, time.Since(start).Round(time.Millisecond))
		}
		if c.onRetry != nil {
			c.onRetry(err, d)
		}
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (while retrying after: %v)", ctx.Err(), err)
		case <-t.C:
		}
		wait = min(2*wait, maxWait)
	}
}

// jitter draws the wait uniformly from [0, d] ("full jitter").
func (c *Client) jitter(d time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Duration(c.rng.Int64N(int64(d) + 1))
}

// once makes one attempt.
func (c *Client) once(ctx context.Context, method, path string, payload []byte, out any) error {
	actx, cancel := context.WithTimeoutCause(ctx, c.attempt, errAttempt)
	defer cancel()
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, method, c.base+path, body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "boa-client")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if context.Cause(actx) == errAttempt && ctx.Err() == nil {
			return fmt.Errorf("%s %s: %w", method, path, errAttempt)
		}
		return err // *url.Error names the method and URL
	}
	defer func() {
		// Read what is left (a malformed answer, an error page) so that
		// the connection can serve the next request.
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
	}()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return responseError(method, path, resp)
	}
	if out == nil || resp.StatusCode == http.StatusNoContent {
		return nil
	}
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber() // parameter values keep their exact text
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	return nil
}

var errAttempt = errors.New("no answer within the attempt timeout")

func responseError(method, path string, resp *http.Response) *Error {
	e := &Error{Method: method, Path: path, Status: resp.StatusCode}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	var msg struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &msg) == nil && msg.Error != "" {
		e.Message = msg.Error
	} else {
		e.Message = strings.TrimSpace(string(data))
		if len(e.Message) > 200 {
			// Cut between characters: a proxy's HTML page in another
			// language would otherwise end in half a character.
			cut := 200
			for cut > 0 && !utf8.RuneStart(e.Message[cut]) {
				cut--
			}
			e.Message = e.Message[:cut] + "..."
		}
		if e.Message == "" {
			e.Message = "(no message)"
		}
	}
	if s := resp.Header.Get("Retry-After"); s != "" {
		var secs int
		if _, err := fmt.Sscanf(s, "%d", &secs); err == nil && secs > 0 {
			e.RetryAfter = time.Duration(min(secs, 60)) * time.Second
		}
	}
	return e
}
