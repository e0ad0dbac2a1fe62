package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
)

// The end-to-end tests run the boa binary as users do: `boa serve`
// processes and `boa worker` processes talking HTTP.

var e2e struct {
	dir     string // removed by TestMain
	once    sync.Once
	bin     string
	skipped string // why the binary is unavailable
	failed  string // why it did not build
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "boa-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	e2e.dir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// boaBinary builds the boa binary once (only when a test needs it).
func boaBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	e2e.once.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			e2e.skipped = "the go command is not on PATH, so the boa binary cannot be built"
			return
		}
		bin := filepath.Join(e2e.dir, "boa")
		out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
		if err != nil {
			e2e.failed = fmt.Sprintf("go build failed: %v\n%s", err, out)
			return
		}
		e2e.bin = bin
	})
	if e2e.failed != "" {
		t.Fatal(e2e.failed) // a broken build is a failure, not a reason to skip
	}
	if e2e.bin == "" {
		t.Skip(e2e.skipped)
	}
	return e2e.bin
}

// syncBuffer collects a process's output for the test to read.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// served is a running `boa serve`.
type served struct {
	url    string
	stderr *syncBuffer
	stop   func() // SIGTERM, and wait for a clean exit (also done when the test ends)
}

// startServe runs `boa serve` on a free loopback port and returns once it
// listens; it is stopped (SIGTERM) when the test ends.
func startServe(t *testing.T, storageURL string, extra ...string) served {
	t.Helper()
	args := append([]string{"serve", "--storage", storageURL, "--addr", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(boaBinary(t), args...)
	cmd.Env = e2eEnv()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	s := served{stderr: &syncBuffer{}}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.stderr, line)
			if _, rest, ok := strings.Cut(line, "listening on "); ok {
				addr <- strings.Fields(rest)[0]
			}
		}
		done <- cmd.Wait()
	}()
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("boa serve did not shut down cleanly: %v\n%s", err, s.stderr)
				}
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				t.Errorf("boa serve did not stop within 10s of SIGTERM")
			}
		})
	}
	t.Cleanup(s.stop)
	select {
	case s.url = <-addr:
		return s
	case err := <-done:
		t.Fatalf("boa serve exited: %v\n%s", err, s.stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("boa serve did not listen within 20s\n%s", s.stderr)
	}
	return s
}

// workerProc is a running `boa worker`.
type workerProc struct {
	cmd    *exec.Cmd
	stderr *syncBuffer
	done   chan error
}

func startWorker(t *testing.T, serverURL, study string, args ...string) *workerProc {
	t.Helper()
	return startWorkerArgs(t, append([]string{"worker", "--server", serverURL, "--study", study}, args...)...)
}

// startWorkerArgs runs boa with args (any command) in the background.
func startWorkerArgs(t *testing.T, args ...string) *workerProc {
	t.Helper()
	w := &workerProc{cmd: exec.Command(boaBinary(t), args...), stderr: &syncBuffer{}, done: make(chan error, 1)}
	w.cmd.Env = e2eEnv()
	w.cmd.Stderr = w.stderr
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	t.Cleanup(func() {
		_ = w.cmd.Process.Kill()
	})
	return w
}

// wait waits for the worker to exit and returns its error.
func (w *workerProc) wait(t *testing.T, d time.Duration) error {
	t.Helper()
	select {
	case err := <-w.done:
		return err
	case <-time.After(d):
		_ = w.cmd.Process.Kill()
		t.Fatalf("worker still running after %v\n%s", d, w.stderr)
	}
	return nil
}

// createStudy creates a 2-float study with the random sampler.
func createStudy(t *testing.T, url, name string, budget int) {
	t.Helper()
	body := fmt.Sprintf(`{"name":%q,"sampler":"random","seed":7,"trials":%d,
		"space":{"x":{"type":"float","low":-5,"high":5},"y":{"type":"float","low":0,"high":1}}}`, name, budget)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := client.New(url, "").CreateStudy(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
}

func studyTrials(t *testing.T, url, name string) []client.Trial {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	trials, err := client.New(url, "").Trials(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return trials
}

func paramKey(p map[string]any) string {
	return fmt.Sprintf("x=%v y=%v", p["x"], p["y"])
}

// e2eEnv is the test's environment without BOA_TOKEN: the tests choose
// their tokens themselves.
func e2eEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BOA_TOKEN=") {
			env = append(env, kv)
		}
	}
	return env
}
