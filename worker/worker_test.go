//go:build linux

package worker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/worker"
)

// serve starts a server over a memory storage with study name (budget
// trials of x in [0, 1]) and returns its client.
func serve(t *testing.T, name string, budget int) (*client.Client, string) {
	t.Helper()
	srv := httptest.NewServer(server.New(storage.NewMemory(), server.Options{}))
	t.Cleanup(srv.Close)
	c := client.New(srv.URL, "", client.WithRetry(0))
	_, err := c.CreateStudy(context.Background(), map[string]any{
		"name": name, "sampler": "random", "seed": 1, "trials": budget,
		"space": map[string]any{"x": map[string]any{"type": "float", "low": 0, "high": 1}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return c, srv.URL
}

// logs collects a worker's log lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) log(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func options(name, server string, l *logs, args ...string) worker.Options {
	return worker.Options{Study: name, Server: server, Name: "test", Heartbeat: time.Second, Wait: true, Log: l.log,
		Command: runner.Command{Args: args}}
}

// The worker runs the command once per trial until the budget is used up,
// and each trial keeps the value its command printed.
func TestRunUsesTheBudget(t *testing.T) {
	c, url := serve(t, "quad", 3)
	var l logs
	if err := worker.Run(context.Background(), c, options("quad", url, &l, "sh", "-c", "echo BOA_RESULT {x}")); err != nil {
		t.Fatalf("Run: %v\n%s", err, &l)
	}
	trials, err := c.Trials(context.Background(), "quad")
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 3 {
		t.Fatalf("%d trials, want 3\n%s", len(trials), &l)
	}
	for _, tr := range trials {
		x, _ := tr.Params["x"].(json.Number).Float64()
		if tr.State != "COMPLETE" || tr.Value == nil || *tr.Value != x || tr.Worker != "test" {
			t.Errorf("trial %d: %s value %v worker %q, want COMPLETE with x = %v by test", tr.Number, tr.State, tr.Value, tr.Worker, x)
		}
	}
	if !strings.Contains(l.String(), "the study's budget is used up; 3 trials run here") {
		t.Errorf("no closing line:\n%s", &l)
	}
}

// A BOA_METRIC line whose name the HTTP API would refuse (over 256 bytes)
// is dropped with a warning by the runner, as boa run drops it, and the
// trial completes; the server's 400 ended the worker and left the trial
// RUNNING until its lease lapsed.
func TestRunLongMetricName(t *testing.T) {
	c, url := serve(t, "metric", 2)
	var l logs
	cmd := fmt.Sprintf("echo BOA_METRIC %s 1; echo BOA_METRIC ok 2; echo BOA_RESULT {x}", strings.Repeat("m", 300))
	if err := worker.Run(context.Background(), c, options("metric", url, &l, "sh", "-c", cmd)); err != nil {
		t.Fatalf("Run: %v\n%s", err, &l)
	}
	trials, err := c.Trials(context.Background(), "metric")
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 2 {
		t.Fatalf("%d trials, want 2\n%s", len(trials), &l)
	}
	for _, tr := range trials {
		if tr.State != "COMPLETE" || tr.Value == nil || len(tr.Metrics) != 1 || tr.Metrics["ok"] != 2 {
			t.Errorf("trial %d: %s %q metrics %v, want COMPLETE with metric ok only\n%s", tr.Number, tr.State, tr.Reason, tr.Metrics, &l)
		}
	}
	if !strings.Contains(l.String(), "a metric name has at most 256 bytes") {
		t.Errorf("the worker does not warn about the dropped line:\n%s", &l)
	}
}

// A study the server does not have ends the worker with a message that
// says how to create it; a cancelled context, with ErrInterrupted.
func TestRunErrors(t *testing.T) {
	c, url := serve(t, "s", 1)
	var l logs
	err := worker.Run(context.Background(), c, options("nope", url, &l, "true"))
	if err == nil || !strings.Contains(err.Error(), `study "nope" not found on `+url) {
		t.Errorf("unknown study: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := worker.Run(ctx, c, options("s", url, &l, "true")); !errors.Is(err, worker.ErrInterrupted) {
		t.Errorf("cancelled: %v, want ErrInterrupted", err)
	}
}
