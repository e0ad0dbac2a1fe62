package sklearn

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	interpreters "github.com/boaopt/boa/internal/python"
)

//go:embed worker.py
var workerScript string

// scriptVar carries worker.py to the interpreter, which bootstrap runs
// (compiled under its file name, so that tracebacks name it).
const (
	scriptVar = "BOA_SKLEARN_WORKER"
	bootstrap = "import os; exec(compile(os.environ.pop('" + scriptVar + "'), 'worker.py', 'exec'))"
)

// startTimeout bounds a worker's start: importing scikit-learn and
// loading a dataset take about a second, far more on a loaded machine.
const startTimeout = 2 * time.Minute

var (
	findOnce    sync.Once
	foundPython string
	foundErr    error
)

// findPython looks for an interpreter with scikit-learn once per process:
// each look imports scikit-learn, about a second.
func findPython() (string, error) {
	findOnce.Do(func() { foundPython, foundErr = interpreters.Find("sklearn", "numpy") })
	return foundPython, foundErr
}

// pythonError is an exception the worker reported for a configuration.
// The objective is deterministic, so it is remembered like a value.
type pythonError struct {
	task, msg string
}

func (e *pythonError) Error() string { return e.task + ": scikit-learn: " + e.msg }

// pool runs a task's workers: at most max at once, each answering one
// configuration at a time, started when every live one is busy.
type pool struct {
	task    string
	opt     Options
	setup   []byte
	slots   chan struct{} // a token per evaluation running
	mu      sync.Mutex
	idle    []*worker
	all     map[*worker]bool
	closed  bool
	findErr error // why no interpreter was found, once looked for
	python  string
}

func newPool(task string, opt Options, setup map[string]any) *pool {
	b, err := json.Marshal(setup)
	if err != nil {
		panic(err) // strings, numbers and booleans only
	}
	return &pool{task: task, opt: opt, setup: b, slots: make(chan struct{}, opt.Processes), all: map[*worker]bool{}}
}

// eval sends configuration params (JSON) to a worker and returns the loss
// and the worker's seconds.
func (p *pool) eval(params []byte) (float64, float64, error) {
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	w, err := p.get()
	if err != nil {
		return 0, 0, err
	}
	var ans struct {
		Value   *float64 `json:"value"`
		Seconds float64  `json:"seconds"`
		Error   string   `json:"error"`
	}
	err = w.request(append(append([]byte(`{"params":`), params...), '}'), p.opt.Timeout, &ans)
	p.put(w, err == nil)
	switch {
	case err != nil:
		return 0, 0, fmt.Errorf("%s: %w", p.task, err)
	case ans.Error != "":
		return 0, 0, &pythonError{task: p.task, msg: ans.Error}
	case ans.Value == nil:
		return 0, 0, fmt.Errorf("%s: the worker answered without a value", p.task)
	}
	return *ans.Value, ans.Seconds, nil
}

// get returns an idle worker or starts one.
func (p *pool) get() (*worker, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil, fmt.Errorf("%s: the problem is closed", p.task)
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		return w, nil
	}
	if p.python == "" && p.findErr == nil {
		p.python = p.opt.Python
		if p.python == "" {
			p.python, p.findErr = findPython()
		}
	}
	if p.findErr != nil {
		return nil, fmt.Errorf("%s needs scikit-learn: %w", p.task, p.findErr)
	}
	// Starting under the lock keeps Close from missing a worker; the
	// others wait at most one start.
	w, err := start(p.python, p.task, p.setup)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.task, err)
	}
	p.all[w] = true
	return w, nil
}

// put returns a worker after a request; a broken one is discarded.
func (p *pool) put(w *worker, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !ok || p.closed {
		delete(p.all, w)
		w.kill()
		return
	}
	p.idle = append(p.idle, w)
}

// close kills every worker, busy or idle, and waits for them to exit.
func (p *pool) close() error {
	p.mu.Lock()
	p.closed = true
	ws := p.all
	p.all, p.idle = map[*worker]bool{}, nil
	p.mu.Unlock()
	for w := range ws {
		w.kill()
	}
	return nil
}

// pids returns the process ids of the live workers (for tests).
func (p *pool) pids() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []int
	for w := range p.all {
		out = append(out, w.cmd.Process.Pid)
	}
	return out
}

// worker is one Python process running worker.py.
type worker struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // stdout, a line at a time; closed once the process has exited
	stderr *tail
	exit   error // the process's exit, set before lines is closed
}

// start runs the worker and sends it the task.
func start(python, task string, setup []byte) (*worker, error) {
	// The script travels in the environment rather than on the command
	// line, which stays short for ps and names the task.
	cmd := exec.Command(python, "-c", bootstrap, "boa-sklearn-worker", task)
	cmd.Env = append(env(), scriptVar+"="+workerScript)
	w := &worker{cmd: cmd, lines: make(chan []byte, 1), stderr: &tail{max: 20}}
	cmd.Stderr = w.stderr
	var err error
	if w.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", python, err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			w.lines <- clone(sc.Bytes())
		}
		w.exit = cmd.Wait() // after every read, as os/exec asks
		close(w.lines)
	}()
	var ans struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := w.request(setup, startTimeout, &ans); err != nil {
		w.kill()
		return nil, err
	}
	if !ans.OK {
		w.kill()
		return nil, fmt.Errorf("the worker did not start: %s", ans.Error)
	}
	return w, nil
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

// request writes one line and decodes the answer. A worker that exits,
// answers garbage or says nothing within timeout is an error (and is then
// no use: the caller discards it).
func (w *worker) request(line []byte, timeout time.Duration, ans any) error {
	if _, err := w.stdin.Write(append(line, '\n')); err != nil {
		return w.died(err)
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case b, ok := <-w.lines:
		if !ok {
			return w.died(nil)
		}
		if err := json.Unmarshal(b, ans); err != nil {
			return fmt.Errorf("the worker answered %.200q: %w", b, err)
		}
		return nil
	case <-t.C:
		w.kill()
		return fmt.Errorf("the worker did not answer within %v (killed)", timeout)
	}
}

// died describes a worker that is gone: its exit status and the end of
// its standard error.
func (w *worker) died(writeErr error) error {
	w.cmd.Process.Kill() // in case it lives on with its input closed
	for range w.lines {  // wait for the exit
	}
	msg := "the Python worker exited"
	if w.exit != nil {
		msg += " (" + w.exit.Error() + ")"
	} else if writeErr != nil {
		msg += " (" + writeErr.Error() + ")"
	}
	if s := w.stderr.String(); s != "" {
		msg += "; its last standard error:\n" + s
	}
	return errors.New(msg)
}

// kill ends the process and waits for it.
func (w *worker) kill() {
	w.stdin.Close()
	w.cmd.Process.Kill()
	for range w.lines {
	}
}

// env is the worker's environment, as bench/peers gives Optuna's: a
// fixed hash seed, unbuffered output and one BLAS thread (bench runs one
// evaluation per core).
func env() []string {
	e := os.Environ()
	set := func(k, v string, override bool) {
		if _, ok := os.LookupEnv(k); ok && !override {
			return
		}
		e = append(e, k+"="+v)
	}
	set("PYTHONHASHSEED", "0", true)
	set("PYTHONUNBUFFERED", "1", true)
	set("PYTHONDONTWRITEBYTECODE", "1", false)
	for _, k := range []string{"OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"} {
		set(k, "1", false)
	}
	return e
}

// tail keeps the last max lines written to it.
type tail struct {
	mu      sync.Mutex
	max     int
	lines   []string
	partial string
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	parts := strings.Split(t.partial+string(b), "\n")
	t.partial = parts[len(parts)-1]
	t.lines = append(t.lines, parts[:len(parts)-1]...)
	if n := len(t.lines); n > t.max {
		t.lines = t.lines[n-t.max:]
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if t.partial != "" {
		lines = append(lines[:len(lines):len(lines)], t.partial)
	}
	return strings.Join(lines, "\n")
}
