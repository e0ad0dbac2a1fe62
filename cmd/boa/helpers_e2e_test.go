package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/internal/boaproc"
)

// The end-to-end tests run the boa binary as users do: `boa serve`
// processes and `boa worker` processes talking HTTP.

func TestMain(m *testing.M) { os.Exit(boaproc.Main(m)) }

// served is a running `boa serve`.
type served struct {
	url    string
	stderr *boaproc.Buffer
	stop   func() // SIGTERM, and wait for a clean exit (also done when the test ends)
}

// startServe runs `boa serve` on a free loopback port and returns once it
// listens; it is stopped (SIGTERM) when the test ends.
func startServe(t *testing.T, storageURL string, extra ...string) served {
	t.Helper()
	cmd := exec.Command(boaproc.Binary(t), append([]string{"serve", "--storage", storageURL, "--addr", "127.0.0.1:0"}, extra...)...)
	cmd.Env = e2eEnv()
	s := boaproc.StartServer(t, "boa serve", cmd)
	return served{url: s.URL, stderr: s.Stderr, stop: s.Stop}
}

// workerProc is a running `boa worker`.
type workerProc struct {
	cmd    *exec.Cmd
	stderr *boaproc.Buffer
	done   chan error
}

func startWorker(t *testing.T, serverURL, study string, args ...string) *workerProc {
	t.Helper()
	return startWorkerArgs(t, append([]string{"worker", "--server", serverURL, "--study", study}, args...)...)
}

// startWorkerArgs runs boa with args (any command) in the background.
func startWorkerArgs(t *testing.T, args ...string) *workerProc {
	t.Helper()
	w := &workerProc{cmd: exec.Command(boaproc.Binary(t), args...), stderr: &boaproc.Buffer{}, done: make(chan error, 1)}
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
