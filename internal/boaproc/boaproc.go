// Package boaproc runs the boa binary in tests, as users run it: built
// once per test process, `boa serve` started on a free port and stopped
// with SIGTERM as a service manager stops it.
package boaproc

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/python"
)

var build struct {
	once    sync.Once
	dir     string
	bin     string
	skipped string // why the binary cannot be built here
	failed  string // why it did not build
}

// Main runs the tests and then removes the binary Binary built: call it
// from TestMain as os.Exit(boaproc.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
	return code
}

// Binary builds cmd/boa once per test process and returns its path. It
// skips the test in -short mode, and fails it when boa does not build: a
// broken build is a failure, not a reason to skip.
func Binary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the boa binary; skipped in -short mode")
	}
	build.once.Do(func() {
		gobin, err := exec.LookPath("go")
		if err != nil {
			build.skipped = "the go command is not on PATH, so the boa binary cannot be built"
			return
		}
		if build.dir, err = os.MkdirTemp("", "boa-bin-"); err != nil {
			build.failed = err.Error()
			return
		}
		bin := filepath.Join(build.dir, "boa")
		if out, err := exec.Command(gobin, "build", "-o", bin, "github.com/boaopt/boa/cmd/boa").CombinedOutput(); err != nil {
			build.failed = fmt.Sprintf("go build failed: %v\n%s", err, out)
			return
		}
		build.bin = bin
	})
	if build.failed != "" {
		t.Fatal(build.failed)
	}
	if build.bin == "" {
		t.Skip(build.skipped)
	}
	return build.bin
}

// Buffer collects a process's output for the test to read while the
// process writes it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Server is a running `boa serve`.
type Server struct {
	URL    string  // http://HOST:PORT, from its "listening on" line
	Stderr *Buffer // what it logged
	stop   func()
}

// Stop sends SIGTERM and fails the test unless the server exits 0 within
// 15 s. It is also done when the test ends.
func (s *Server) Stop() { s.stop() }

// StartServer starts cmd, a `boa serve` command with its environment and
// directory set by the caller (its stderr must be unset), and returns once
// it listens.
func StartServer(t testing.TB, name string, cmd *exec.Cmd) *Server {
	t.Helper()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	s := &Server{Stderr: &Buffer{}}
	done := make(chan error, 1)
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			fmt.Fprintln(s.Stderr, sc.Text())
			if _, rest, ok := strings.Cut(sc.Text(), "listening on "); ok {
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
					t.Errorf("%s did not stop cleanly on SIGTERM: %v\n%s", name, err, s.Stderr)
				}
			case <-time.After(15 * time.Second):
				_ = cmd.Process.Kill()
				t.Errorf("%s still running 15s after SIGTERM", name)
			}
		})
	}
	t.Cleanup(s.stop)
	select {
	case s.URL = <-addr:
	case err := <-done:
		t.Fatalf("%s exited: %v\n%s", name, err, s.Stderr)
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not listen within 20s\n%s", name, s.Stderr)
	}
	return s
}

// PythonOnPath returns a PATH= environment entry whose first directory
// holds a python3 that imports module (internal/python finds it, such as
// Debian's /usr/bin/python3 with scikit-learn), as a user's PATH would
// have it for a study file whose command says python3. It skips the test
// when there is none.
func PythonOnPath(t testing.TB, module string) string {
	t.Helper()
	py, err := python.Find(module)
	if err != nil {
		t.Skipf("needs a python3 with %s (Debian's python3-%s): %v", module, module, err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(py, filepath.Join(bin, "python3")); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// Runner returns a function that runs the boa binary (Binary) with its
// arguments in dir, with env added to the environment, and returns its
// combined output; a failed command fails the test with that output.
func Runner(t testing.TB, dir string, env ...string) func(args ...string) string {
	boa := Binary(t)
	return func(args ...string) string {
		t.Helper()
		cmd := exec.Command(boa, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("boa %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
}
