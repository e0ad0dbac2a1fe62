package client_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

const spec = `{"name":"demo","sampler":"random","seed":2,"trials":3,
	"space":{"lr":{"type":"float","low":1e-4,"high":1,"log":true},"layers":{"type":"int","low":1,"high":4}}}`

// serve starts a server over a fresh memory storage, wrapped by wrap.
func serve(t *testing.T, token string, wrap func(http.Handler) http.Handler) string {
	var h http.Handler = server.New(storage.NewMemory(), server.Options{Token: token})
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func newClient(url, token string, opts ...client.Option) *client.Client {
	opts = append([]client.Option{client.WithRand(rand.New(rand.NewPCG(1, 2)))}, opts...)
	return client.New(url, token, opts...)
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	url := serve(t, "tok", nil)
	c := newClient(url, "tok")
	st, err := c.CreateStudy(ctx, []byte(spec))
	if err != nil || st.Name != "demo" || st.Budget != 3 {
		t.Fatalf("CreateStudy: %+v, %v", st, err)
	}
	if _, err := c.CreateStudy(ctx, []byte(spec)); client.StatusOf(err) != http.StatusConflict {
		t.Errorf("creating it again: %v, want a 409", err)
	}
	b, err := c.Ask(ctx, "demo", 2, "w1")
	if err != nil || len(b.Trials) != 2 || b.Lease != 30*time.Second {
		t.Fatalf("Ask: %+v, %v", b, err)
	}
	tr := b.Trials[0]
	if _, ok := tr.Params["layers"]; !ok || tr.State != "RUNNING" {
		t.Fatalf("asked trial: %+v", tr)
	}
	if b0, b1 := tr.Batch, b.Trials[1].Batch; b0 == nil || b1 == nil || *b0 != *b1 {
		t.Fatalf("the trials of one ask have batches %v and %v, want the same number", b0, b1)
	}
	if err := c.Heartbeat(ctx, tr.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Report(ctx, tr.ID, 1, 0.5); err != nil {
		t.Fatal(err)
	}
	res := client.Result{Value: 0.125, Metrics: map[string]float64{"acc": 0.9, "bad": math.NaN()}}
	if err := c.Tell(ctx, tr.ID, res); err != nil {
		t.Fatal(err)
	}
	if err := c.Tell(ctx, tr.ID, res); err != nil {
		t.Errorf("telling the same result again: %v", err)
	}
	if err := c.Tell(ctx, tr.ID, client.Result{Value: 1}); client.StatusOf(err) != http.StatusConflict {
		t.Errorf("telling another result: %v, want a 409", err)
	}
	if err := c.Tell(ctx, b.Trials[1].ID, client.Result{Value: math.Inf(1)}); err == nil || client.StatusOf(err) != 0 {
		t.Errorf("telling Inf: %v, want a client-side error", err)
	}
	if err := c.Tell(ctx, b.Trials[1].ID, client.Result{State: "FAILED", Reason: "exit code 3"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Enqueue(ctx, "demo", map[string]any{"lr": 5.0, "layers": 2}); client.StatusOf(err) != http.StatusBadRequest {
		t.Errorf("enqueue outside the space: %v, want a 400", err)
	}
	q, err := c.Enqueue(ctx, "demo", map[string]any{"lr": 0.01, "layers": 2})
	if err != nil || q.State != "WAITING" {
		t.Fatalf("Enqueue: %+v, %v", q, err)
	}
	if b, err := c.Ask(ctx, "demo", 5, ""); err != nil || len(b.Trials) != 1 || b.Trials[0].ID != q.ID {
		t.Fatalf("ask after enqueue: %+v, %v", b, err)
	}

	trials, err := c.Trials(ctx, "demo")
	if err != nil || len(trials) != 3 {
		t.Fatalf("Trials: %v, %v", trials, err)
	}
	if got := trials[0]; got.State != "COMPLETE" || *got.Value != 0.125 || got.Metrics["acc"] != 0.9 || len(got.Reports) != 1 || got.Worker != "w1" {
		t.Errorf("trial 0: %+v", got)
	}
	if trials[1].Reason != "exit code 3" || trials[1].Value != nil {
		t.Errorf("trial 1: %+v", trials[1])
	}
	best, err := c.Best(ctx, "demo")
	if err != nil || best.Number != 0 {
		t.Errorf("Best: %+v, %v", best, err)
	}
	list, err := c.Studies(ctx)
	if err != nil || len(list) != 1 || list[0].States["RUNNING"] != 1 || *list[0].BestValue != 0.125 || list[0].Choice != "" {
		t.Errorf("Studies: %+v, %v", list, err)
	}
	auto := strings.NewReplacer(`"demo"`, `"auto"`, `"random"`, `"auto"`).Replace(spec)
	if st, err := c.CreateStudy(ctx, []byte(auto)); err != nil || st.Choice != "gpbo" || st.Transform != "" {
		t.Errorf("CreateStudy with sampler auto on a space without categories: choice %q, transform %q, %v; want gpbo and none", st.Choice, st.Transform, err)
	}
	logged := strings.NewReplacer(`"demo"`, `"logged"`, `"random"`, `"random","transform":"log"`).Replace(spec)
	if st, err := c.CreateStudy(ctx, []byte(logged)); err != nil || st.Transform != "log" {
		t.Errorf("CreateStudy with transform log: %q, %v", st.Transform, err)
	}
	if st, err := c.SetBudget(ctx, "demo", 5); err != nil || st.Budget != 5 {
		t.Errorf("SetBudget(5): %+v, %v", st, err)
	}
	if b, err := c.Ask(ctx, "demo", 5, ""); err != nil || len(b.Trials) != 2 {
		t.Errorf("ask after raising the budget from 3 to 5: %+v, %v; want 2 trials", b, err)
	}
	if _, err := c.SetBudget(ctx, "nosuch", 4); client.StatusOf(err) != 404 {
		t.Errorf("SetBudget of an unknown study: %v, want a 404", err)
	}
	if _, err := c.Study(ctx, "nosuch"); client.StatusOf(err) != 404 || !strings.Contains(err.Error(), `"nosuch" not found`) {
		t.Errorf("unknown study: %v", err)
	}
	if n, err := c.DeleteStudy(ctx, "demo"); err != nil || n != 5 {
		t.Errorf("DeleteStudy: %d trials, %v; want 5", n, err)
	}
	if _, err := c.DeleteStudy(ctx, "demo"); client.StatusOf(err) != 404 {
		t.Errorf("deleting it again: %v, want a 404", err)
	}
	if _, err := c.Trials(ctx, "demo"); client.StatusOf(err) != 404 {
		t.Errorf("trials of the deleted study: %v, want a 404", err)
	}
	if _, err := newClient(url, "wrong").Studies(ctx); client.StatusOf(err) != 401 {
		t.Errorf("wrong token: %v", err)
	}
}

// failFirst answers the first n requests with status (0: drop the
// connection without an answer) and passes the rest on.
func failFirst(n int32, status int, calls *atomic.Int32) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) > n {
				next.ServeHTTP(w, r)
				return
			}
			if status == 0 {
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			w.Header().Set("Retry-After", "0")
			http.Error(w, "<html>proxy says no</html>", status)
		})
	}
}

func TestRetries(t *testing.T) {
	cases := []struct {
		name     string
		fails    int32
		status   int
		wantErr  int // status of the error; 0 means success
		attempts int32
	}{
		{"503 then ok", 2, 503, 0, 3},
		{"502 then ok", 1, 502, 0, 2},
		{"504 then ok", 1, 504, 0, 2},
		{"429 then ok", 1, 429, 0, 2},
		{"dropped connection then ok", 2, 0, 0, 3},
		{"400 is not retried", 1, 400, 400, 1},
		{"404 is not retried", 1, 404, 404, 1},
		{"500 is not retried", 1, 500, 500, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var calls atomic.Int32
			cl := newClient(serve(t, "", failFirst(c.fails, c.status, &calls)), "")
			_, err := cl.Studies(context.Background())
			if got := client.StatusOf(err); got != c.wantErr || (c.wantErr == 0 && err != nil) {
				t.Fatalf("error %v (status %d), want status %d", err, got, c.wantErr)
			}
			if calls.Load() != c.attempts {
				t.Errorf("%d attempts, want %d", calls.Load(), c.attempts)
			}
			if c.wantErr != 0 && !strings.Contains(err.Error(), "proxy says no") {
				t.Errorf("error %q does not carry the body", err)
			}
		})
	}
}

// A tell whose answer is lost is sent again; the server takes the repeat
// of the result it already recorded as a success.
func TestTellRetryIsIdempotent(t *testing.T) {
	ctx := context.Background()
	var lost atomic.Bool
	url := serve(t, "", func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/tell") && lost.CompareAndSwap(false, true) {
				next.ServeHTTP(httptest.NewRecorder(), r) // recorded, but the answer never arrives
				conn, _, _ := w.(http.Hijacker).Hijack()
				conn.Close()
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	c := newClient(url, "")
	if _, err := c.CreateStudy(ctx, []byte(spec)); err != nil {
		t.Fatal(err)
	}
	b, err := c.Ask(ctx, "demo", 1, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Tell(ctx, b.Trials[0].ID, client.Result{Value: 0.5, Metrics: map[string]float64{"m": 1}}); err != nil {
		t.Fatalf("retried tell: %v", err)
	}
	if !lost.Load() {
		t.Fatal("the first answer was not dropped")
	}
	trials, _ := c.Trials(ctx, "demo")
	if trials[0].State != "COMPLETE" || *trials[0].Value != 0.5 {
		t.Errorf("trial: %+v", trials[0])
	}
}

func TestRetryBounds(t *testing.T) {
	// Nothing listens on a closed listener's port: connection refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()

	var retries atomic.Int32
	c := newClient(url, "", client.WithRetry(400*time.Millisecond),
		client.WithOnRetry(func(error, time.Duration) { retries.Add(1) }))
	start := time.Now()
	_, err = c.Studies(context.Background())
	if err == nil || !strings.Contains(err.Error(), "gave up after") || time.Since(start) > 2*time.Second {
		t.Errorf("unreachable server: %v after %v", err, time.Since(start))
	}
	if retries.Load() < 2 {
		t.Errorf("%d retries in 400ms, want several", retries.Load())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err = newClient(url, "", client.WithRetry(time.Minute)).Studies(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
		t.Errorf("retries past the context: %v after %v", err, time.Since(start))
	}

	_, err = newClient(url, "", client.WithRetry(0)).Studies(context.Background())
	if err == nil || strings.Contains(err.Error(), "gave up") {
		t.Errorf("no retries: %v", err)
	}
}

// An attempt that gets no answer in time is abandoned and retried.
func TestAttemptTimeout(t *testing.T) {
	var calls atomic.Int32
	url := serve(t, "", func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				select {
				case <-time.After(5 * time.Second):
				case <-r.Context().Done():
				}
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	c := newClient(url, "", client.WithAttempt(100*time.Millisecond))
	if _, err := c.Studies(context.Background()); err != nil || calls.Load() != 2 {
		t.Errorf("after a slow attempt: %v, %d calls", err, calls.Load())
	}
}
