package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Command is a subprocess objective.
type Command struct {
	Args    []string      // argv; each may contain {name} and {name?} placeholders substituted from the trial's params
	Groups  []Group       // runs of Args dropped together when an optional placeholder in them has no value
	Env     []string      // extra environment (KEY=VALUE), added to the parent's environment
	Dir     string        // working directory ("" = current)
	Timeout time.Duration // 0 = none
	LogDir  string        // per-trial logs go to LogDir/<study>/trial-<number>.{out,err} ("" = no log files)
	Grace   time.Duration // time between SIGTERM and SIGKILL of the process group (0 = 5s)
}

// DefaultGrace is the time between SIGTERM and SIGKILL when Command.Grace is 0.
const DefaultGrace = 5 * time.Second

// Trial identifies the trial being run.
type Trial struct {
	ID     int64  // storage id, BOA_TRIAL_ID
	Number int    // position in the study, BOA_TRIAL_NUMBER and the log file name
	Study  string // study name, BOA_STUDY and the log directory
	// Params is the configuration, BOA_PARAMS and {name} substitutions.
	// Give it in the form of space.Space.Export, whose json.Number values
	// hold the text of each value by its parameter's kind: a float64 does
	// not say whether it is a Float (1.0) or an Ordinal (1000000).
	Params map[string]any
	// Fidelity, when the study declares one, is the budget the trial may
	// train to: {name} in the command and BOA_FIDELITY in its
	// environment; not in BOA_PARAMS, which is the configuration.
	Fidelity *Fidelity
}

// Fidelity is a study's fidelity as a trial gets it: its name (epochs)
// and the value the trial runs at (its maximum: the study's pruner stops
// the trial earlier, from its reports).
type Fidelity struct {
	Name  string
	Value int64
}

// argvParams are the values the command's placeholders take: the
// parameters, and the fidelity by its name.
func (t Trial) argvParams() map[string]any {
	if t.Fidelity == nil {
		return t.Params
	}
	out := maps.Clone(t.Params)
	if out == nil {
		out = map[string]any{}
	}
	out[t.Fidelity.Name] = json.Number(strconv.FormatInt(t.Fidelity.Value, 10))
	return out
}

// Report is one intermediate value (a BOA_REPORT line).
type Report struct {
	Step  int64
	Value float64
}

// Result is what the command reported.
type Result struct {
	Value float64 // the last BOA_RESULT, its first value
	// Values are all the values of the last BOA_RESULT line, one per
	// objective of a multi-objective study (Objectives puts them in the
	// study's order), and Names their names when the line named them.
	Values   []float64
	Names    []string
	Metrics  map[string]float64 // BOA_METRIC name value (last wins)
	Reports  []Report           // BOA_REPORT step value, in order of appearance
	ExitCode int                // -1 when killed by a signal or never started
	// Signal is the signal that killed the command when Run did not send
	// it (0 otherwise): a SIGTERM sent to boa's whole process group or
	// control group (systemd, Slurm's scancel) reaches the command too,
	// maybe before it reaches boa.
	Signal         syscall.Signal
	Stdout, Stderr string // log file paths ("" when LogDir is empty or the file could not be created)
	Duration       time.Duration

	// Warnings are problems that do not fail the trial, for the caller to
	// print: a log that could not be written, protocol lines that were
	// dropped. DESIGN.md §2.3 fails a trial only for its exit status, a
	// timeout or its result, so these must not discard a valid result.
	Warnings []string
}

// Check looks for what would fail every trial alike, for the caller to run
// once before the first one rather than burn the study's budget: a program
// that cannot be found or executed, a working directory that is not one, a
// log directory that cannot be created or written. It creates c.LogDir, as
// the first trial would. A program named with a placeholder is known only
// per trial and is not checked. Validate checks the command's syntax.
func (c Command) Check() error {
	if c.Dir != "" {
		if err := checkDir(c.Dir); err != nil {
			return err
		}
	}
	if len(c.Args) > 0 {
		if err := checkProgram(c.Args[0], c.Dir); err != nil {
			return err
		}
	}
	if c.LogDir != "" {
		if err := os.MkdirAll(c.LogDir, 0o755); err != nil {
			return fmt.Errorf("logs %s: %w", c.LogDir, unwrapPath(err))
		}
		// A directory that exists may still refuse files.
		f, err := os.CreateTemp(c.LogDir, ".boa-check-*")
		if err != nil {
			return fmt.Errorf("logs %s: cannot create files there: %w", c.LogDir, unwrapPath(err))
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// checkDir checks a working directory. Run checks it too, so that a trial
// fails naming the directory rather than the program: the kernel's chdir
// error surfaces from exec as "fork/exec PROGRAM: no such file or
// directory".
func checkDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("working directory %s: %w", dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("working directory %s: not a directory", dir)
	}
	return nil
}

// checkProgram resolves prog as Run would: on $PATH when it has no slash,
// else as a path, which exec takes relative to the working directory dir.
func checkProgram(prog, dir string) error {
	pieces, err := parseArg(prog)
	if err != nil {
		return fmt.Errorf("command[0] %q: %w", prog, err)
	}
	var name strings.Builder // prog with {{ and }} unescaped
	for _, p := range pieces {
		if p.param {
			return nil
		}
		name.WriteString(p.text)
	}
	path := name.String()
	if strings.Contains(path, "/") && !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	if _, err := exec.LookPath(path); err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		if path != prog {
			return fmt.Errorf("command[0] %q (%s): %w", prog, path, unwrapPath(err))
		}
		return fmt.Errorf("command[0] %q: %w", prog, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// message around it already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// LogPaths returns the stdout and stderr log files of trial t under dir.
// The study name is reduced to a safe file name (letters, digits, '.', '-'
// and '_'; anything else becomes '_') so that a name coming from a remote
// server cannot escape dir. A name that had to change also gets a short
// hash of the exact name, so that two studies ("svm digits", "svm_digits")
// never share, and truncate, each other's logs; a name that is safe as it
// is stays as it is.
func LogPaths(dir string, t Trial) (stdout, stderr string) {
	base := filepath.Join(dir, safeName(t.Study), "trial-"+strconv.Itoa(t.Number))
	return base + ".out", base + ".err"
}

func safeName(s string) string {
	b := []byte(s)
	changed := false
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
		if !ok {
			b[i], changed = '_', true
		}
	}
	safe := string(b)
	if safe == "" || strings.Trim(safe, ".") == "" { // "", ".", ".." are no names
		safe, changed = "_"+safe, true
	}
	if !changed {
		return safe
	}
	sum := sha256.Sum256([]byte(s))
	return safe + "-" + hex.EncodeToString(sum[:4])
}

// environ is the command's environment: the parent's, then c.Env, then the
// BOA_ variables, so that the protocol's variables are always the trial's
// own (exec keeps the last of duplicate keys).
func environ(c Command, t Trial) ([]string, error) {
	params := t.Params
	if params == nil {
		params = map[string]any{}
	}
	js, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding BOA_PARAMS: %w", err)
	}
	env := append(os.Environ(), c.Env...)
	env = append(env,
		"BOA_TRIAL_ID="+strconv.FormatInt(t.ID, 10),
		"BOA_TRIAL_NUMBER="+strconv.Itoa(t.Number),
		"BOA_STUDY="+t.Study,
		"BOA_PARAMS="+string(js),
	)
	if t.Fidelity != nil {
		env = append(env, "BOA_FIDELITY="+strconv.FormatInt(t.Fidelity.Value, 10))
	}
	return env, nil
}

// logFile is a log sink that never fails the copy it sits in: a full disk
// must not stall the command on a pipe, nor fail a trial that produced a
// result, so the first error is kept and becomes a warning after the trial.
type logFile struct {
	f    *os.File
	path string // "" when there is no file
	err  error
}

// openLog opens the log file at path, or returns a sink without a file that
// holds the reason: the trial runs without that log rather than fail.
func openLog(path string) *logFile {
	if path == "" {
		return &logFile{}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return &logFile{err: fmt.Errorf("no log for this trial: creating log directory: %w", err)}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return &logFile{err: fmt.Errorf("no log for this trial: creating log file: %w", err)}
	}
	return &logFile{f: f, path: path}
}

func (l *logFile) Write(p []byte) (int, error) {
	if l.f != nil && l.err == nil {
		if _, err := l.f.Write(p); err != nil {
			l.err = fmt.Errorf("log %s is incomplete: %w", l.path, err)
		}
	}
	return len(p), nil
}

func (l *logFile) close() error {
	if l.f == nil {
		return l.err
	}
	if err := l.f.Close(); err != nil && l.err == nil {
		l.err = fmt.Errorf("log %s may be incomplete: closing it: %w", l.path, err)
	}
	return l.err
}

// shortDuration prints 10m rather than 10m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// Objectives returns the result's values in the order of the study's
// objectives, named names: the values of a positional BOA_RESULT line,
// one per objective, or those of a named one, which must name each
// objective once. The error, the reason the trial FAILS, says what the
// command printed and what the study wants.
func (r Result) Objectives(names []string) ([]float64, error) {
	want := func() string {
		if len(names) == 1 {
			return "BOA_RESULT <value>"
		}
		pos, named := make([]string, len(names)), make([]string, len(names))
		for i, n := range names {
			pos[i], named[i] = "<"+n+">", n+"=<value>"
		}
		return fmt.Sprintf("BOA_RESULT %s or BOA_RESULT %s", strings.Join(pos, " "), strings.Join(named, " "))
	}
	if r.Names == nil {
		if len(r.Values) != len(names) {
			return nil, fmt.Errorf("the command printed %d value(s) on its BOA_RESULT line, but the study has %d objective(s) (%s): print %s",
				len(r.Values), len(names), strings.Join(names, ", "), want())
		}
		return r.Values, nil
	}
	out := make([]float64, len(names))
	for i, n := range names {
		j := slices.Index(r.Names, n)
		if j < 0 {
			return nil, fmt.Errorf("the command's BOA_RESULT line names %s but not objective %s: print %s", strings.Join(r.Names, ", "), n, want())
		}
		out[i] = r.Values[j]
	}
	if len(r.Names) > len(names) {
		return nil, fmt.Errorf("the command's BOA_RESULT line names %s, but the study's objectives are %s: print %s", strings.Join(r.Names, ", "), strings.Join(names, ", "), want())
	}
	return out, nil
}
