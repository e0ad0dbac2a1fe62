package peers

import (
	"bufio"
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
)

//go:embed optuna_adapter.py
var adapterScript string

// requestTimeout bounds each exchange with the adapter. Optuna 3.1's TPE
// takes about 60 ms per ask at 1,000 trials, so a minute means a hung or
// wedged process, not a slow one.
const requestTimeout = 60 * time.Second

// optunaSession is one long-lived Python process running the adapter
// script, exchanging JSON lines with it.
type optunaSession struct {
	sp      *space.Space
	python  string
	timeout time.Duration

	mu      sync.Mutex // one exchange at a time
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan []byte   // adapter's stdout lines; closed at EOF
	stderr  *tail         // last lines of the adapter's stderr
	quit    chan struct{} // closed by kill: stop forwarding stdout
	exited  chan struct{} // closed once the process has been waited for
	waitErr error         // valid after exited is closed
	pending bool
	// objectives is the number of values a tell carries: 1, or that of
	// the directions (TellValues).
	objectives int

	killOnce sync.Once
	closed   bool // guarded by mu
}

// adapterParam is one parameter as the adapter script reads it.
type adapterParam struct {
	Name    string         `json:"name"`
	Kind    string         `json:"kind"`
	Low     float64        `json:"low"`
	High    float64        `json:"high"`
	Log     bool           `json:"log,omitempty"`
	Values  []float64      `json:"values,omitempty"`
	Step    float64        `json:"step,omitempty"`
	Choices []string       `json:"choices,omitempty"`
	When    map[string]any `json:"when,omitempty"`
}

// adapterLimit is one constraint as the adapter script reads it: the
// metric and its bounds (null when absent).
type adapterLimit struct {
	Name string   `json:"name"`
	Min  *float64 `json:"min"`
	Max  *float64 `json:"max"`
}

func newOptuna(ctx context.Context, sp *space.Space, sampler string, seed uint64, limits constraint.Set) (*optunaSession, error) {
	return newOptunaWith(ctx, sp, sampler, seed, limits, nil, nil)
}

// newOptunaPruned is newOptuna with Optuna's HyperbandPruner set as pr says.
func newOptunaPruned(ctx context.Context, sp *space.Space, sampler string, seed uint64, pr Pruning) (*optunaSession, error) {
	hb := map[string]any{"type": "hyperband", "min_resource": max(pr.MinResource, 1), "max_resource": "auto", "reduction_factor": cmp.Or(pr.ReductionFactor, 3)}
	if pr.MaxResource > 0 {
		hb["max_resource"] = pr.MaxResource
	}
	return newOptunaWith(ctx, sp, sampler, seed, nil, nil, hb)
}

// newOptunaWith starts the adapter for a study of len(directions)
// objectives, each "minimize" or "maximize" (nil: one, minimised), with a
// pruner configuration (nil: none).
func newOptunaWith(ctx context.Context, sp *space.Space, sampler string, seed uint64, limits constraint.Set, directions []string, prune map[string]any) (*optunaSession, error) {
	py := findPython()
	if py.path == "" {
		return nil, fmt.Errorf("peers: optuna-%s: %s", sampler, py.reason)
	}
	pls := plans(sp)
	params := make([]adapterParam, len(pls))
	for i := range pls {
		params[i] = toAdapter(&pls[i], sp)
	}
	// NumPy seeds must fit in 32 bits; seeds below 2³² pass unchanged so a
	// run can be repeated by hand in Python.
	cons := []adapterLimit{}
	for _, n := range limits.Names() {
		cons = append(cons, adapterLimit{Name: n, Min: limits[n].Min, Max: limits[n].Max})
	}
	cfg := map[string]any{"sampler": sampler, "seed": seed % (1 << 32), "space": params, "constraints": cons}
	if directions != nil {
		cfg["directions"] = directions
	}
	if prune != nil {
		cfg["pruner"] = prune
	}
	s, err := startAdapter(ctx, py.path, adapterScript, cfg, requestTimeout, sp)
	if err != nil {
		return nil, err
	}
	s.objectives = max(1, len(directions))
	return s, nil
}

// toAdapter describes a parameter to the script, with conditions in the
// parents' own JSON types so that Python compares values, not spellings.
func toAdapter(pl *plan, sp *space.Space) adapterParam {
	p := &pl.Param
	ap := adapterParam{Name: p.Name, Kind: p.Kind.String(), Low: p.Low, High: p.High, Log: p.Log,
		Values: p.Values, Step: pl.step, Choices: p.Choices}
	if len(p.When) > 0 {
		ap.When = map[string]any{}
		for parent, allowed := range p.When {
			j, _ := sp.Index(parent)
			par := sp.Param(j)
			vals := make([]any, len(allowed))
			for k, s := range allowed {
				vals[k] = whenValue(par, s)
			}
			ap.When[parent] = vals
		}
	}
	return ap
}

// whenValue converts a canonical condition value (space.Format of a legal
// value, so parsing cannot fail) to the parent's Assignment type.
func whenValue(par space.Param, s string) any {
	switch par.Kind {
	case space.Int:
		v, _ := strconv.ParseFloat(s, 64)
		return int(v)
	case space.Ordinal:
		v, _ := strconv.ParseFloat(s, 64)
		return nearest(par.Values, v)
	case space.Bool:
		return s == "true"
	}
	return s
}

// startAdapter starts script under python, sends cfg and waits for the
// adapter's greeting.
func startAdapter(ctx context.Context, python, script string, cfg any, timeout time.Duration, sp *space.Space) (*optunaSession, error) {
	first, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("peers: optuna: encoding the configuration: %w", err)
	}
	cmd := exec.Command(python, "-c", script)
	cmd.Env = pythonEnv()
	s := &optunaSession{sp: sp, python: python, timeout: timeout, cmd: cmd,
		lines: make(chan []byte), stderr: &tail{max: 20}, quit: make(chan struct{}), exited: make(chan struct{})}
	cmd.Stderr = s.stderr
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("peers: optuna: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("peers: optuna: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("peers: optuna: starting %s: %w", python, err)
	}
	go s.forward(stdout)
	if _, err := s.exchange(ctx, first, "start"); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// forward passes stdout lines to exchange, then reaps the process: Wait may
// only run once stdout has been read to the end.
func (s *optunaSession) forward(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := slices.Clone(sc.Bytes())
		select {
		case s.lines <- line:
		case <-s.quit:
			io.Copy(io.Discard, stdout) // the process is being killed; drain to EOF
		}
	}
	if sc.Err() != nil {
		s.kill() // an overlong line: nobody reads the rest, so the process could block forever
	}
	close(s.lines)
	s.waitErr = s.cmd.Wait()
	close(s.exited)
}

// reply is any answer of the adapter.
type reply struct {
	OK     bool                       `json:"ok"`
	Error  string                     `json:"error"`
	Params map[string]json.RawMessage `json:"params"`
	Number int64                      `json:"number"`
	Prune  bool                       `json:"prune"`
}

// exchange sends one line and waits for one answer. A timeout or a
// cancelled ctx leaves the protocol out of step, so both kill the process.
func (s *optunaSession) exchange(ctx context.Context, msg []byte, op string) (*reply, error) {
	timer := time.NewTimer(s.timeout)
	defer timer.Stop()
	// The write is bounded too: once the pipe's buffer (64 KiB) is full, an
	// adapter that does not read (hung before its loop) would block it for
	// ever. A kill makes a blocked write fail, so the goroutine ends.
	written := make(chan error, 1)
	go func() {
		_, err := s.stdin.Write(append(msg, '\n'))
		written <- err
	}()
	for {
		select {
		case err := <-written:
			if err != nil {
				return nil, s.died(op)
			}
			written = nil // sent: now the answer
		case line, ok := <-s.lines:
			if !ok {
				return nil, s.died(op)
			}
			var r reply
			if err := json.Unmarshal(line, &r); err != nil {
				s.kill()
				return nil, fmt.Errorf("peers: optuna: %s: the adapter wrote %q, not a protocol line; stopped it%s", op, trim(line), s.stderr.suffix())
			}
			if r.Error != "" {
				return nil, fmt.Errorf("peers: optuna: %s: %s", op, r.Error)
			}
			return &r, nil
		case <-timer.C:
			s.kill()
			if written != nil {
				return nil, fmt.Errorf("peers: optuna: %s: the adapter (%s) read nothing within %v; killed it%s", op, s.python, s.timeout, s.stderr.suffix())
			}
			return nil, fmt.Errorf("peers: optuna: %s: no answer within %v from the adapter (%s); killed it%s", op, s.timeout, s.python, s.stderr.suffix())
		case <-ctx.Done():
			s.kill()
			return nil, fmt.Errorf("peers: optuna: %s: %w; the adapter was stopped", op, ctx.Err())
		}
	}
}

// died explains an adapter that stopped answering: its exit status and the
// last lines it wrote to stderr.
func (s *optunaSession) died(op string) error {
	status := "still running"
	select {
	case <-s.exited:
		status = "exited"
		if s.waitErr != nil {
			status = s.waitErr.Error()
		}
	case <-time.After(5 * time.Second):
		s.kill()
	}
	return fmt.Errorf("peers: optuna: %s: the adapter process (%s) closed its output (%s)%s", op, s.python, status, s.stderr.suffix())
}

// kill stops the process and releases the forwarding goroutine.
func (s *optunaSession) kill() {
	s.killOnce.Do(func() {
		close(s.quit)
		s.stdin.Close()
		s.cmd.Process.Kill()
	})
}

// Ask returns the adapter's next configuration, checked against the space.
func (s *optunaSession) Ask(ctx context.Context) (space.Assignment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	// The configuration of an earlier Ask is abandoned now (the adapter
	// fails its trial); until this Ask succeeds there is none to Tell, and a
	// Tell would go to whatever trial the failed ask left in the adapter.
	s.pending = false
	_, a, err := s.ask(ctx, `{"op":"ask"}`)
	if err != nil {
		return nil, err
	}
	s.pending = true
	return a, nil
}

// AskTrial returns a configuration that stays out until TellTrial, with
// Optuna's trial number; Optuna's samplers model the completed trials
// only (TPE without its constant liar, as by default).
func (s *optunaSession) AskTrial(ctx context.Context) (int64, space.Assignment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(ctx); err != nil {
		return 0, nil, err
	}
	return s.ask(ctx, `{"op":"ask","keep":true}`)
}

// ask sends an ask and decodes the configuration of its answer.
func (s *optunaSession) ask(ctx context.Context, msg string) (int64, space.Assignment, error) {
	r, err := s.exchange(ctx, []byte(msg), "ask")
	if err != nil {
		return 0, nil, err
	}
	a, err := s.decode(r.Params)
	if err != nil {
		return 0, nil, fmt.Errorf("peers: optuna: ask: %w", err)
	}
	return r.Number, a, nil
}

// usable reports why the session cannot take a request now. A cancelled
// ctx sends nothing, so the session stays usable.
func (s *optunaSession) usable(ctx context.Context) error {
	if s.closed {
		return errClosed
	}
	return ctx.Err()
}

// TellTrial reports the value of trial id, asked with AskTrial.
func (s *optunaSession) TellTrial(ctx context.Context, id int64, value float64) error {
	return s.TellTrialMetrics(ctx, id, value, nil)
}

// TellTrialMetrics is TellTrial with the trial's metrics, which the
// adapter stores as the trial's user attributes (optuna-tpe-c's
// constraints_func reads them).
func (s *optunaSession) TellTrialMetrics(ctx context.Context, id int64, value float64, metrics map[string]float64) error {
	if err := checkValue(value, true); err != nil {
		return err
	}
	_, err := s.request(ctx, map[string]any{"op": "tell", "value": value, "number": id, "metrics": finiteMetrics(metrics)}, "tell")
	return err
}

// Report records trial id's value after step (Optuna's trial.report).
func (s *optunaSession) Report(ctx context.Context, id, step int64, value float64) error {
	if err := checkValue(value, true); err != nil {
		return err
	}
	_, err := s.request(ctx, map[string]any{"op": "report", "number": id, "step": step, "value": value}, "report")
	return err
}

// ShouldPrune asks Optuna's pruner about trial id (trial.should_prune).
func (s *optunaSession) ShouldPrune(ctx context.Context, id int64) (bool, error) {
	r, err := s.request(ctx, map[string]any{"op": "should_prune", "number": id}, "should_prune")
	if err != nil {
		return false, err
	}
	return r.Prune, nil
}

// Prune ends trial id as pruned: Optuna keeps its last reported value.
func (s *optunaSession) Prune(ctx context.Context, id int64, last float64) error {
	_, err := s.request(ctx, map[string]any{"op": "tell", "number": id, "pruned": true}, "tell")
	return err
}

// request sends one message when the session is usable.
func (s *optunaSession) request(ctx context.Context, msg map[string]any, op string) (*reply, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(ctx); err != nil {
		return nil, err
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("peers: optuna: %s: %w", op, err)
	}
	return s.exchange(ctx, b, op)
}

// finiteMetrics leaves out the metrics JSON cannot carry (NaN, ±Inf): the
// adapter treats a missing metric as violating its limit, as
// constraint.Set.Check does.
func finiteMetrics(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[k] = v
		}
	}
	return out
}

// decode converts the adapter's JSON values to boa's canonical types.
func (s *optunaSession) decode(raw map[string]json.RawMessage) (space.Assignment, error) {
	a := make(space.Assignment, len(raw))
	for name, msg := range raw {
		i, ok := s.sp.Index(name)
		if !ok {
			return nil, fmt.Errorf("the adapter returned the unknown parameter %q", name)
		}
		p := s.sp.Param(i)
		var v any
		var err error
		switch p.Kind {
		case space.Float:
			var x float64
			err = json.Unmarshal(msg, &x)
			v = clampFloat(x, p.Low, p.High)
		case space.Int:
			var x float64 // Optuna may write 3 or 3.0
			err = json.Unmarshal(msg, &x)
			v = int(math.Round(x))
		case space.Ordinal:
			var x float64
			err = json.Unmarshal(msg, &x)
			v = nearest(p.Values, x)
		case space.Categorical:
			var x string
			err = json.Unmarshal(msg, &x)
			v = x
		case space.Bool:
			var x bool
			err = json.Unmarshal(msg, &x)
			v = x
		}
		if err != nil {
			return nil, fmt.Errorf("parameter %s: the adapter returned %s: %w", name, msg, err)
		}
		a[name] = v
	}
	if err := s.sp.Validate(a); err != nil {
		return nil, fmt.Errorf("the adapter returned an invalid configuration: %w", err)
	}
	return a, nil
}

// Tell reports the value of the last asked configuration.
func (s *optunaSession) Tell(ctx context.Context, value float64) error {
	return s.TellMetrics(ctx, value, nil)
}

// TellMetrics is Tell with the configuration's metrics (TellTrialMetrics).
func (s *optunaSession) TellMetrics(ctx context.Context, value float64, metrics map[string]float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(ctx); err != nil {
		return err
	}
	if err := checkValue(value, s.pending); err != nil {
		return err
	}
	msg, err := json.Marshal(map[string]any{"op": "tell", "value": value, "metrics": finiteMetrics(metrics)})
	if err != nil {
		return fmt.Errorf("peers: optuna: tell: %w", err)
	}
	if _, err := s.exchange(ctx, msg, "tell"); err != nil {
		return err
	}
	s.pending = false
	return nil
}

// TellValues reports every objective's value of the last asked
// configuration, each in the sense of its direction: a study of several
// objectives (NewMulti) takes these, not Tell's one value.
func (s *optunaSession) TellValues(ctx context.Context, values []float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(ctx); err != nil {
		return err
	}
	if err := s.checkValues(values, s.pending); err != nil {
		return err
	}
	msg, err := json.Marshal(map[string]any{"op": "tell", "values": values})
	if err != nil {
		return fmt.Errorf("peers: optuna: tell: %w", err)
	}
	if _, err := s.exchange(ctx, msg, "tell"); err != nil {
		return err
	}
	s.pending = false
	return nil
}

// TellTrialValues is TellValues for trial id, asked with AskTrial.
func (s *optunaSession) TellTrialValues(ctx context.Context, id int64, values []float64) error {
	if err := s.checkValues(values, true); err != nil {
		return err
	}
	_, err := s.request(ctx, map[string]any{"op": "tell", "values": values, "number": id}, "tell")
	return err
}

// checkValues checks a tell of several values: one per objective, each
// finite.
func (s *optunaSession) checkValues(values []float64, asked bool) error {
	if len(values) != s.objectives {
		return fmt.Errorf("peers: a tell of %d values to a study of %d objectives", len(values), s.objectives)
	}
	for _, v := range values {
		if err := checkValue(v, asked); err != nil {
			return err
		}
	}
	return nil
}

// Close kills the adapter and waits until it has exited, so no process
// outlives the session. It may be called while an Ask is waiting, which
// then fails.
func (s *optunaSession) Close() error {
	s.kill()
	<-s.exited
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	return nil
}

// pid is the adapter's process id, for tests.
func (s *optunaSession) pid() int { return s.cmd.Process.Pid }

// tail keeps the last max lines written to it.
type tail struct {
	mu    sync.Mutex
	max   int
	lines []string
	part  string
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	text := t.part + string(b)
	parts := strings.Split(text, "\n")
	t.part = parts[len(parts)-1]
	for _, l := range parts[:len(parts)-1] {
		t.lines = append(t.lines, l)
	}
	if n := len(t.lines) - t.max; n > 0 {
		t.lines = slices.Delete(t.lines, 0, n)
	}
	return len(b), nil
}

// suffix formats the tail for an error message, or "" when stderr was quiet.
func (t *tail) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := slices.Clone(t.lines)
	if t.part != "" {
		lines = append(lines, t.part)
	}
	if len(lines) == 0 {
		return ""
	}
	return "; its last stderr lines:\n\t" + strings.Join(lines, "\n\t")
}

func trim(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
