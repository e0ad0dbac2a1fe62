package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
)

// waitFile waits until path exists.
func waitFile(t *testing.T, path string, w *workerProc) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not appear\n%s", path, w.stderr)
		}
	}
}

// Ctrl-C: the command is stopped, the trial is FAILED "interrupted" and
// its configuration re-queued, and the worker exits non-zero.
func TestE2EWorkerInterrupt(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	createStudy(t, s.url, "intr", 3)
	started := filepath.Join(dir, "started")
	w := startWorker(t, s.url, "intr", "--", "sh", "-c", fmt.Sprintf("touch %s; sleep 30; echo BOA_RESULT 1", started))
	waitFile(t, started, w)
	_ = w.cmd.Process.Signal(syscall.SIGINT)
	if err := w.wait(t, 15*time.Second); err == nil {
		t.Fatalf("interrupted worker exited 0\n%s", w.stderr)
	}
	trials := studyTrials(t, s.url, "intr")
	if len(trials) != 2 || trials[0].State != "FAILED" || trials[0].Reason != "interrupted" {
		t.Fatalf("after Ctrl-C: %+v\n%s", trials, w.stderr)
	}
	if r := trials[1]; r.State != "WAITING" || r.RetryOf == nil || *r.RetryOf != 0 || paramKey(r.Params) != paramKey(trials[0].Params) {
		t.Errorf("re-queued trial: %+v", r)
	}
	if !strings.Contains(w.stderr.String(), "trial 0") {
		t.Errorf("no line for trial 0 on stderr:\n%s", w.stderr)
	}
}

// A trial the server no longer takes as running (here failed by someone
// else) is stopped at the next heartbeat, and its result is not told.
func TestE2EWorkerLostTrial(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	createStudy(t, s.url, "lost", 3)
	started := filepath.Join(dir, "started")
	w := startWorker(t, s.url, "lost", "--trials", "1", "--heartbeat", "100ms",
		"--", "sh", "-c", fmt.Sprintf("touch %s; sleep 30; echo BOA_RESULT 1", started))
	waitFile(t, started, w)
	ctx := context.Background()
	c := client.New(s.url, "")
	trials := studyTrials(t, s.url, "lost")
	if err := c.Tell(ctx, trials[0].ID, client.Result{State: "FAILED", Reason: "cancelled by the operator"}); err != nil {
		t.Fatal(err)
	}
	if err := w.wait(t, 15*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	if !strings.Contains(w.stderr.String(), "result is discarded") {
		t.Errorf("worker did not report the lost trial:\n%s", w.stderr)
	}
	if tr := studyTrials(t, s.url, "lost")[0]; tr.Reason != "cancelled by the operator" {
		t.Errorf("trial: %+v", tr)
	}
}

// Bad set-ups fail at once with a message that says what to do.
func TestE2EWorkerAndServeErrors(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	createStudy(t, s.url, "errs", 3)
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"worker", "--server", s.url, "--study", "nosuch", "--", "true"}, `study "nosuch" not found`},
		{[]string{"worker", "--server", s.url, "--study", "errs", "--", "echo", "{z}"}, "unknown parameter {z}"},
		{[]string{"worker", "--server", s.url, "--study", "errs"}, "no command"},
		{[]string{"serve", "--storage", "memory:", "--addr", "0.0.0.0:0"}, "refusing to serve on 0.0.0.0:0 without a token"},
	}
	for _, c := range cases {
		w := startWorkerArgs(t, c.args...)
		if err := w.wait(t, 20*time.Second); err == nil || !strings.Contains(w.stderr.String(), c.says) {
			t.Errorf("boa %s: %v, stderr does not say %q:\n%s", strings.Join(c.args, " "), err, c.says, w.stderr)
		}
	}
}

// A value the study's log transform cannot take, refused by the server,
// fails the worker's trial with the server's reason; the worker goes on.
func TestE2EWorkerLogTransform(t *testing.T) {
	s := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	body := `{"name":"logged","sampler":"random","seed":3,"trials":8,"transform":"log","space":{"x":{"type":"float","low":-1,"high":1}}}`
	if _, err := client.New(s.url, "").CreateStudy(context.Background(), []byte(body)); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, s.url, "logged", "--", "sh", "-c", "echo BOA_RESULT {x}")
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	failed := 0
	for _, tr := range studyTrials(t, s.url, "logged") {
		x, _ := tr.Params["x"].(json.Number).Float64()
		switch {
		case x > 0 && tr.State != "COMPLETE", x <= 0 && (tr.State != "FAILED" || !strings.Contains(tr.Reason, "transform log needs values > 0")):
			t.Errorf("trial %d, x = %v: %s %q", tr.Number, x, tr.State, tr.Reason)
		case x <= 0:
			failed++
		}
	}
	if failed == 0 || !strings.Contains(w.stderr.String(), "FAILED") {
		t.Errorf("no trial with x ≤ 0 failed, or the worker did not say so:\n%s", w.stderr)
	}
}

// With a token, a worker without it is refused and one with it works.
func TestE2EToken(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"), "--token", "s3cret-s3cret-s3cret")
	body := `{"name":"tok","sampler":"random","trials":2,"space":{"x":{"type":"float","low":0,"high":1}}}`
	ctx := context.Background()
	if _, err := client.New(s.url, "").CreateStudy(ctx, []byte(body)); client.StatusOf(err) != 401 {
		t.Fatalf("create without the token: %v, want a 401", err)
	}
	if _, err := client.New(s.url, "s3cret-s3cret-s3cret").CreateStudy(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, s.url, "tok", "--", "sh", "-c", "echo BOA_RESULT {x}")
	if err := w.wait(t, 20*time.Second); err == nil || !strings.Contains(w.stderr.String(), "BOA_TOKEN") {
		t.Errorf("worker without the token: %v\n%s", err, w.stderr)
	}
	w = startWorker(t, s.url, "tok", "--token", "s3cret-s3cret-s3cret", "--", "sh", "-c", "echo BOA_RESULT {x}")
	if err := w.wait(t, 20*time.Second); err != nil {
		t.Fatalf("worker with the token: %v\n%s", err, w.stderr)
	}
	trials, err := client.New(s.url, "s3cret-s3cret-s3cret").Trials(ctx, "tok")
	if err != nil || len(trials) != 2 || trials[1].State != "COMPLETE" {
		t.Errorf("trials: %+v, %v", trials, err)
	}
}

// A worker rides out a restart of the server: its requests are retried
// until the server is back, and the study completes.
func TestE2EServerRestart(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "boa.db")
	s := startServe(t, db)
	createStudy(t, s.url, "restart", 8)
	w := startWorker(t, s.url, "restart", "--heartbeat", "100ms", "--", "sh", "-c", "sleep 0.2; echo BOA_RESULT {x}")
	for len(studyTrials(t, s.url, "restart")) < 2 {
		time.Sleep(50 * time.Millisecond)
	}
	s.stop()
	time.Sleep(500 * time.Millisecond) // the worker's requests fail meanwhile
	startServe(t, db, "--addr", strings.TrimPrefix(s.url, "http://"))
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	t.Logf("worker:\n%s", w.stderr)
	if !strings.Contains(w.stderr.String(), "retrying in") {
		t.Errorf("the worker did not retry:\n%s", w.stderr)
	}
	trials := studyTrials(t, s.url, "restart")
	complete := 0
	for _, tr := range trials {
		if tr.State == "COMPLETE" {
			complete++
		}
	}
	if complete != 8 || len(trials) != 8 {
		t.Errorf("%d trials, %d COMPLETE; want 8 and 8\n%s", len(trials), complete, w.stderr)
	}
}
