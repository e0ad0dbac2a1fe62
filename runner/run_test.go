//go:build linux

package runner

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/space"
)

// sh is a command running script with sh -c; "$1"... are the extra args.
func sh(script string, args ...string) Command {
	return Command{Args: append([]string{"sh", "-c", script, "sh"}, args...)}
}

func TestRunOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		script   string
		value    float64
		metrics  map[string]float64
		reports  []Report
		exit     int
		wantErr  string // substring of the reason; "" = success
		fullText bool   // wantErr is the whole reason
		warning  string // the one warning, in full; "" = none
	}{
		{name: "last result wins", script: "echo BOA_RESULT 1; echo BOA_RESULT 2.5", value: 2.5},
		{name: "white space", script: `printf '  \tBOA_RESULT   -3e-2 \r\n'`, value: -0.03},
		{name: "ordinary output ignored", script: "echo epoch 1; echo BOA_RESULTS 7; echo BOA_PARAMS x; echo BOA_RESULT 4", value: 4},
		{name: "malformed then valid", script: "echo BOA_RESULT abc; echo BOA_RESULT 4", value: 4},
		{name: "no trailing newline", script: "printf 'BOA_RESULT 5'", value: 5},
		{name: "carriage returns", script: `printf 'progress 1\rprogress 2\rBOA_RESULT 0.7\n'`, value: 0.7},
		{name: "CRLF and CR line numbers", script: `printf 'a\r\nb\r\nBOA_RESULT 1\rBOA_RESULT x\r\n'`, value: 1,
			wantErr: `line 3 "BOA_RESULT x": "x" is not a number`, fullText: true},
		{name: "metrics last wins", script: "echo BOA_METRIC acc 0.9; echo BOA_METRIC acc 0.95; echo BOA_METRIC size_kb 12; echo BOA_RESULT 1",
			value: 1, metrics: map[string]float64{"acc": 0.95, "size_kb": 12}},
		{name: "reports in order", script: "echo BOA_REPORT 2 0.5; echo BOA_REPORT 1 0.7; echo BOA_REPORT 2 0.4; echo BOA_RESULT 0.4",
			value: 0.4, reports: []Report{{2, 0.5}, {1, 0.7}, {2, 0.4}}},

		{name: "valid then malformed", script: "echo BOA_RESULT 1; echo BOA_RESULT abc",
			wantErr: `line 2 "BOA_RESULT abc": "abc" is not a number`, fullText: true, value: 1},
		{name: "NaN", script: "echo BOA_RESULT NaN", wantErr: `line 1 "BOA_RESULT NaN": NaN is not a finite number`, fullText: true},
		{name: "Inf", script: "echo BOA_RESULT -inf", wantErr: "-inf is not a finite number"},
		{name: "overflow", script: "echo BOA_RESULT 1e400", wantErr: "1e400 is not a finite number"},
		{name: "two values", script: "echo BOA_RESULT 1 2", value: 1},
		{name: "named and not", script: "echo BOA_RESULT a=1 2", wantErr: `line 1 "BOA_RESULT a=1 2": give every value a name (name=value) or none`, fullText: true},
		{name: "named twice", script: "echo BOA_RESULT a=1 a=2", wantErr: `"a=2": each value needs a name of its own`},
		{name: "named NaN", script: "echo BOA_RESULT a=1 b=nan", wantErr: `nan is not a finite number`},
		{name: "bare keyword", script: "echo BOA_RESULT", wantErr: "want BOA_RESULT <value>"},
		{name: "hex float", script: "echo BOA_RESULT 0x1p-2", wantErr: `line 1 "BOA_RESULT 0x1p-2": "0x1p-2" is not a decimal number`, fullText: true},
		{name: "digit separators", script: "echo BOA_METRIC n 1_000; echo BOA_RESULT 1", value: 1,
			warning: `dropped line 1 "BOA_METRIC n 1_000": "1_000" is not a decimal number`},
		{name: "missing result", script: "echo done", wantErr: "no BOA_RESULT line on stdout", fullText: true},
		{name: "near miss", script: "echo 'BOA_RESULT: 0.5'",
			wantErr: `no BOA_RESULT line on stdout (line 1 "BOA_RESULT: 0.5" is not one: write BOA_RESULT <value>)`, fullText: true},
		{name: "result on stderr", script: "echo BOA_RESULT 0.5 >&2", wantErr: "stderr has a BOA_RESULT line"},

		// Bad BOA_METRIC and BOA_REPORT lines are dropped with a warning;
		// the trial stands on its BOA_RESULT.
		{name: "malformed metric", script: "echo BOA_METRIC acc; echo BOA_RESULT 1", value: 1,
			warning: `dropped line 1 "BOA_METRIC acc": want BOA_METRIC <name> <value>`},
		// A NaN or infinite metric is a value: a constraint on it does not
		// hold (a NaN one) or is judged by it.
		{name: "NaN metric then valid", script: "echo BOA_METRIC acc nan; echo BOA_METRIC acc 0.9; echo BOA_RESULT 1",
			value: 1, metrics: map[string]float64{"acc": 0.9}},
		{name: "valid metric then Inf", script: "echo BOA_METRIC acc 0.9; echo BOA_METRIC acc -Inf; echo BOA_RESULT 1",
			value: 1, metrics: map[string]float64{"acc": math.Inf(-1)}},
		{name: "metric name too long", script: "echo BOA_METRIC " + strings.Repeat("m", MaxMetricName+1) + " 1; echo BOA_METRIC ok 2; echo BOA_RESULT 1",
			value: 1, metrics: map[string]float64{"ok": 2},
			warning: `dropped line 1 "BOA_METRIC ` + strings.Repeat("m", 80-len("BOA_METRIC ")) + `…": a metric name has at most 256 bytes and no NUL character`},
		{name: "NUL in a metric name", script: `printf 'BOA_METRIC a\0b 1\nBOA_RESULT 1\n'`,
			value: 1, warning: `dropped line 1 "BOA_METRIC a\x00b 1": a metric name has at most 256 bytes and no NUL character`},
		{name: "fractional step", script: "echo BOA_REPORT 1.5 2; echo BOA_RESULT 1", value: 1,
			warning: `dropped line 1 "BOA_REPORT 1.5 2": step "1.5" is not an integer ≥ 0`},
		{name: "negative step", script: "echo BOA_REPORT -1 2; echo BOA_REPORT 0 3; echo BOA_RESULT 1", value: 1,
			reports: []Report{{0, 3}}, warning: `dropped line 1 "BOA_REPORT -1 2": step "-1" is not an integer ≥ 0`},
		{name: "diverged epochs", script: "echo BOA_REPORT 1 0.5; echo BOA_REPORT 2 nan; echo BOA_REPORT 3 x; echo BOA_METRIC loss 1x; echo BOA_RESULT 1",
			value: 1, reports: []Report{{1, 0.5}},
			warning: `dropped 3 bad BOA_METRIC/BOA_REPORT lines, the first: line 2 "BOA_REPORT 2 nan": nan is not a finite number`},
		{name: "bad metric and no result", script: "echo BOA_METRIC acc 1x", wantErr: "no BOA_RESULT line on stdout", fullText: true,
			warning: `dropped line 1 "BOA_METRIC acc 1x": "1x" is not a number`},

		{name: "exit code with stderr tail", script: "echo BOA_RESULT 1; for w in one two three four; do echo $w >&2; done; echo >&2; exit 3",
			value: 1, exit: 3, wantErr: "exit code 3: two | three | four", fullText: true},
		{name: "exit code without stderr", script: "exit 7", exit: 7, wantErr: "exit code 7", fullText: true},
		{name: "exit code after a progress bar", script: `printf ' 10%%\r 50%%\r' >&2; exit 1`, exit: 1, wantErr: "exit code 1: 10% | 50%", fullText: true},
		// What a crashing program prints reaches the terminal through the
		// reason: escaped, so that colours, a cleared screen, a title or
		// binary bytes stay in the log file (Printable).
		{name: "exit code after ANSI and binary output", script: `printf '\033[31mTraceback\033[0m\n\033]0;pwned\007\033[2J\n\000\001\377\376 bin\n' >&2; exit 2`, exit: 2,
			wantErr: `exit code 2: \x1b[31mTraceback\x1b[0m | \x1b]0;pwned\a\x1b[2J | \x00\x01\xff\xfe bin`, fullText: true},
		{name: "killed by signal", script: "echo oops >&2; kill -SEGV $$", exit: -1,
			wantErr: "killed by signal 11 (segmentation fault): oops", fullText: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Run(context.Background(), sh(tt.script), Trial{}, nil)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error %q", err)
				}
			} else {
				switch {
				case err == nil:
					t.Fatalf("no error; want %q", tt.wantErr)
				case tt.fullText && err.Error() != tt.wantErr:
					t.Fatalf("reason %q; want %q", err, tt.wantErr)
				case !strings.Contains(err.Error(), tt.wantErr):
					t.Fatalf("reason %q; want it to contain %q", err, tt.wantErr)
				}
			}
			if res.Value != tt.value {
				t.Errorf("Value = %v; want %v", res.Value, tt.value)
			}
			if len(res.Metrics)+len(tt.metrics) > 0 && !reflect.DeepEqual(res.Metrics, tt.metrics) {
				t.Errorf("Metrics = %v; want %v", res.Metrics, tt.metrics)
			}
			if !reflect.DeepEqual(res.Reports, tt.reports) {
				t.Errorf("Reports = %v; want %v", res.Reports, tt.reports)
			}
			if res.ExitCode != tt.exit {
				t.Errorf("ExitCode = %d; want %d", res.ExitCode, tt.exit)
			}
			if tt.warning == "" && len(res.Warnings) > 0 || tt.warning != "" && !reflect.DeepEqual(res.Warnings, []string{tt.warning}) {
				t.Errorf("Warnings = %q; want %q", res.Warnings, tt.warning)
			}
		})
	}
}

func TestRunStartErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       Command
		params  map[string]any
		wantErr string
	}{
		{"no program", Command{Args: []string{"/nonexistent/boa-objective"}}, nil, "starting command"},
		{"not on PATH", Command{Args: []string{"boa-no-such-program"}}, nil, "executable file not found"},
		{"empty", Command{}, nil, "command is empty"},
		{"missing param", sh("echo {x}"), map[string]any{"y": 1}, "parameter {x} has no value"},
		{"bad dir", Command{Args: []string{"true"}, Dir: "/nonexistent/dir"}, nil, "working directory /nonexistent/dir: no such file or directory"},
		{"NaN param", sh("true"), map[string]any{"x": math.NaN()}, "encoding BOA_PARAMS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			res, err := Run(context.Background(), tt.c, Trial{Params: tt.params}, nil)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v; want it to contain %q", err, tt.wantErr)
			}
			if res.ExitCode != -1 {
				t.Errorf("ExitCode = %d; want -1", res.ExitCode)
			}
		})
	}
}

// onReport must see each report while the command is still running: the
// script waits for the file the callback creates before going on.
func TestReportsLive(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	script := `for s in 1 2 3; do
		echo "BOA_REPORT $s 0.$s"
		i=0; while [ ! -e "$1/seen-$s" ]; do i=$((i+1)); [ $i -gt 500 ] && exit 9; sleep 0.01; done
	done
	echo BOA_RESULT 0.3`
	var mu sync.Mutex
	var got []Report
	res, err := Run(context.Background(), sh(script, dir), Trial{}, func(r Report) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		os.WriteFile(filepath.Join(dir, "seen-"+strconv.FormatInt(r.Step, 10)), nil, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Report{{1, 0.1}, {2, 0.2}, {3, 0.3}}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(res.Reports, want) {
		t.Fatalf("onReport saw %v, Result.Reports %v; want %v", got, res.Reports, want)
	}
}

// A slow onReport must neither lose output nor be called after Run returns.
func TestSlowOnReport(t *testing.T) {
	t.Parallel()
	c := sh("for s in 1 2 3; do echo BOA_REPORT $s 0.$s; done; echo BOA_RESULT 0.5")
	c.Grace = 50 * time.Millisecond
	var mu sync.Mutex
	calls := 0
	res, err := Run(context.Background(), c, Trial{}, func(Report) {
		time.Sleep(150 * time.Millisecond)
		mu.Lock()
		calls++
		mu.Unlock()
	})
	mu.Lock()
	n := calls
	mu.Unlock()
	if err != nil || res.Value != 0.5 || len(res.Reports) != 3 || n != 3 {
		t.Fatalf("got %v, %d reports, %d calls by return, %v; want 0.5, 3, 3, nil", res.Value, len(res.Reports), n, err)
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	c := self(t, "env")
	c.Env = append(c.Env, "EXTRA=yes", "BOA_TRIAL_ID=999") // the trial's own id must win
	tr := Trial{ID: 42, Number: 7, Study: "svm digits",
		Params: map[string]any{"lr": 1e-3, "layers": 3, "kernel": "rbf", "shrink": true}}
	res, err := Run(context.Background(), c, tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"BOA_TRIAL_ID": 42, "BOA_TRIAL_NUMBER": 7, "params": 4, "lr": 1e-3}
	if res.Value != 0.25 || !reflect.DeepEqual(res.Metrics, want) {
		t.Fatalf("got value %v metrics %v; want 0.25 and %v", res.Value, res.Metrics, want)
	}
}

// Variables from Env reach the command as given, '=' in a value included.
func TestRunEnvMap(t *testing.T) {
	t.Parallel()
	c := sh(`[ "$A" = 1 ] && [ "$B" = "x=y" ] && [ -z "$C" ] && [ "${{C+set}}" = set ] && echo BOA_RESULT 1`)
	var err error
	if c.Env, err = Env(map[string]string{"A": "1", "B": "x=y", "C": ""}); err != nil {
		t.Fatal(err)
	}
	if err := Validate(c, nil); err != nil {
		t.Fatal(err)
	}
	if res, err := Run(context.Background(), c, Trial{}, nil); err != nil || res.Value != 1 {
		t.Fatalf("got %v, %v; want 1, nil", res.Value, err)
	}
}

// Why ValidateSpace refuses {degree} of a conditional parameter: every
// trial where it is inactive fails; the command it points to, reading
// BOA_PARAMS, runs in every trial.
func TestConditionalParams(t *testing.T) {
	t.Parallel()
	sp := space.MustNew(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
	)
	inactive := Trial{Params: map[string]any{"kernel": "rbf"}}
	placeholder := sh("echo BOA_RESULT $1", "{degree}")
	if err := ValidateSpace(placeholder, sp); err == nil {
		t.Error("ValidateSpace accepted {degree}")
	}
	if _, err := Run(context.Background(), placeholder, inactive, nil); err == nil || !strings.Contains(err.Error(), "{degree} has no value") {
		t.Errorf("Run with {degree} inactive: %v; want it to fail", err)
	}
	params := sh(`case "$BOA_PARAMS" in *'"degree":'*) echo BOA_RESULT 2;; *) echo BOA_RESULT 1;; esac`)
	if err := ValidateSpace(params, sp); err != nil {
		t.Fatal(err)
	}
	for want, tr := range map[float64]Trial{1: inactive, 2: {Params: map[string]any{"kernel": "poly", "degree": 3}}} {
		if res, err := Run(context.Background(), params, tr, nil); err != nil || res.Value != want {
			t.Errorf("Run(%v) = %v, %v; want %v", tr.Params, res.Value, err, want)
		}
	}
	// So does one with {degree?}, and a group [--degree, "{degree?}"]:
	// left out where degree is inactive. The script counts its arguments.
	optional := sh(`echo BOA_RESULT $#`, "--kernel={kernel}", "--degree", "{degree?}", "-d{degree?}")
	optional.Groups = []Group{{5, 7}}
	if err := ValidateSpace(optional, sp); err != nil {
		t.Fatal(err)
	}
	for want, tr := range map[float64]Trial{1: inactive, 4: {Params: map[string]any{"kernel": "poly", "degree": 3}}} {
		if res, err := Run(context.Background(), optional, tr, nil); err != nil || res.Value != want {
			t.Errorf("Run(%v) with {degree?} = %v, %v; want %v arguments", tr.Params, res.Value, err, want)
		}
	}
}

// A Float parameter at a whole value (here its upper bound, which the GP
// proposes often) reaches the command as 1.0 in its arguments and in
// BOA_PARAMS, where scikit-learn would read 1 as max_features=1 (one
// feature); an Int as digits. The params are in the form boa run and boa
// worker pass (space.Space.Export).
func TestRunFloatStaysFloat(t *testing.T) {
	t.Parallel()
	sp := space.MustNew(
		space.Param{Name: "max_features", Kind: space.Float, Low: 0.5, High: 1},
		space.Param{Name: "depth", Kind: space.Int, Low: 1, High: 9},
	)
	// {{ and }} are literal braces in a command.
	c := sh(`[ "$1" = "--max-features=1.0" ] || exit 3
[ "$2" = "3" ] || exit 4
[ "$BOA_PARAMS" = '{{"depth":3,"max_features":1.0}}' ] || exit 5
echo BOA_RESULT 1`, "--max-features={max_features}", "{depth}")
	params := sp.Export(space.Assignment{"max_features": 1.0, "depth": 3})
	if res, err := Run(context.Background(), c, Trial{Params: params}, nil); err != nil || res.Value != 1 {
		t.Fatalf("got %v, %v (exit %d); want 1, nil", res.Value, err, res.ExitCode)
	}
}

// Arguments reach the program substituted, one argv entry each.
func TestRunSubstitutes(t *testing.T) {
	t.Parallel()
	c := sh(`[ "$1" = "--lr=0.001" ] && [ "$2" = "a b" ] && [ "$3" = "{{3}}" ] && echo BOA_RESULT $4`,
		"--lr={lr}", "{kernel}", "{{{layers}}}", "{layers}")
	res, err := Run(context.Background(), c, Trial{Params: map[string]any{"lr": 0.001, "kernel": "a b", "layers": 3}}, nil)
	if err != nil || res.Value != 3 {
		t.Fatalf("got %v, %v; want 3, nil", res.Value, err)
	}
}

func TestLongLines(t *testing.T) {
	t.Parallel()
	c := self(t, "longline")
	c.LogDir = t.TempDir()
	res, err := Run(context.Background(), c, Trial{Study: "long", Number: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Value != 1.5 {
		t.Errorf("Value = %v; want 1.5", res.Value)
	}
	for path, min := range map[string]int64{res.Stdout: 3 * 2 << 20, res.Stderr: 2 << 20} {
		if fi, err := os.Stat(path); err != nil || fi.Size() < min {
			t.Errorf("log %s: %v, want at least %d bytes", path, err, min)
		}
	}
}

func TestLogFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := sh("echo hello; echo BOA_RESULT 1; echo warning >&2; exit 2")
	c.LogDir = dir
	res, err := Run(context.Background(), c, Trial{Study: "../evil/study", Number: 12}, nil)
	if err == nil || err.Error() != "exit code 2: warning" {
		t.Fatalf("error %v; want exit code 2: warning", err)
	}
	wantOut := filepath.Join(dir, ".._evil_study-32874cb4", "trial-12.out")
	if res.Stdout != wantOut || res.Stderr != strings.TrimSuffix(wantOut, ".out")+".err" {
		t.Fatalf("paths %q %q; want under %s", res.Stdout, res.Stderr, wantOut)
	}
	for path, want := range map[string]string{res.Stdout: "hello\nBOA_RESULT 1\n", res.Stderr: "warning\n"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", path, b, err, want)
		}
	}

	// Without LogDir nothing is written and the paths are empty.
	res, err = Run(context.Background(), sh("echo BOA_RESULT 1"), Trial{}, nil)
	if err != nil || res.Stdout != "" || res.Stderr != "" {
		t.Fatalf("got %q %q %v; want no log paths", res.Stdout, res.Stderr, err)
	}

	// An unusable log directory costs the logs, not the trial: the command
	// runs, and the reason is one warning (not one per stream).
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	c = sh("echo BOA_RESULT 2; echo warning >&2")
	c.LogDir = blocker
	res, err = Run(context.Background(), c, Trial{Study: "s"}, nil)
	if err != nil || res.Value != 2 || res.Stdout != "" || res.Stderr != "" {
		t.Fatalf("got %v, %q %q, %v; want 2 without log paths", res.Value, res.Stdout, res.Stderr, err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "creating log directory") {
		t.Fatalf("warnings %q; want one about creating the log directory", res.Warnings)
	}
}

// '\r' ends a protocol line, but the log keeps the output byte for byte.
func TestCarriageReturnLog(t *testing.T) {
	t.Parallel()
	out := "epoch 1 [=====     ]\repoch 1 [==========]\rBOA_RESULT 0.25\r\nend"
	c := sh(`printf '%s' "$1"`, out)
	c.LogDir = t.TempDir()
	res, err := Run(context.Background(), c, Trial{Study: "cr"}, nil)
	if err != nil || res.Value != 0.25 {
		t.Fatalf("got %v, %v; want 0.25, nil", res.Value, err)
	}
	if b, err := os.ReadFile(res.Stdout); err != nil || string(b) != out {
		t.Errorf("stdout log %q, %v; want %q", b, err, out)
	}
}

// A log that cannot be written (a full disk: /dev/full, which fails every
// write, as root too) must not fail a trial that produced a result
// (DESIGN.md §2.3 lists the only causes); the error comes back as a warning.
func TestLogWriteError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tr := Trial{Study: "full", Number: 0}
	out, errPath := LogPaths(dir, tr)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", out); err != nil {
		t.Fatal(err)
	}
	c := sh("echo BOA_RESULT 0.5; echo note >&2")
	c.LogDir = dir
	res, err := Run(context.Background(), c, tr, nil)
	if err != nil || res.Value != 0.5 {
		t.Fatalf("got %v, %v; want 0.5, nil", res.Value, err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "no space left on device") {
		t.Fatalf("warnings %q; want one with no space left on device", res.Warnings)
	}
	if b, err := os.ReadFile(errPath); err != nil || string(b) != "note\n" {
		t.Errorf("stderr log %q, %v; want note", b, err)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"svm-digits_2.v1": "svm-digits_2.v1", // safe names keep their paths
		"svm_digits":      "svm_digits",
		"svm digits":      "svm_digits-0dd85a9b",
		"":                "_-e3b0c442",
		"_":               "_",
		".":               "_.-cdb4ee2a",
		"..":              "_..-5ec1f7e7",
		"a/b c":           "a_b_c-0af99a60",
		"é":               "__-4a99557e",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q; want %q", in, got, want)
		}
	}
}

// Studies whose names differ only in characters that are not safe in a
// file name must not write to, and truncate, the same log files.
func TestLogDirsDistinct(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	c := sh(`echo "BOA_RESULT 1"; echo "$BOA_STUDY"`)
	c.LogDir = dir
	studies := []string{"svm digits", "svm_digits", "svm/digits"}
	for _, name := range studies {
		if _, err := Run(context.Background(), c, Trial{Study: name}, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range studies {
		out, _ := LogPaths(dir, Trial{Study: name})
		if b, err := os.ReadFile(out); err != nil || string(b) != "BOA_RESULT 1\n"+name+"\n" {
			t.Errorf("log of study %q: %q, %v; want its own output", name, b, err)
		}
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		10 * time.Minute:                   "10m",
		time.Hour:                          "1h",
		90 * time.Minute:                   "1h30m",
		300 * time.Millisecond:             "300ms",
		time.Minute + 500*time.Millisecond: "1m0.5s",
	} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%v) = %q; want %q", d, got, want)
		}
	}
}

// TestNaNMetricIsKept: BOA_METRIC name nan reaches the caller as NaN, so
// that a constraint on it makes the trial infeasible with the reason "name
// is NaN" [spec constrained-autotinyml §1]; the last line wins as ever.
func TestNaNMetricIsKept(t *testing.T) {
	t.Parallel()
	res, err := Run(context.Background(), sh("echo BOA_METRIC ram_kb 12; echo BOA_METRIC ram_kb nan; echo BOA_METRIC acc NaN; echo BOA_RESULT 1"), Trial{}, nil)
	if err != nil || len(res.Warnings) > 0 {
		t.Fatalf("Run: %v, warnings %q", err, res.Warnings)
	}
	if len(res.Metrics) != 2 || !math.IsNaN(res.Metrics["ram_kb"]) || !math.IsNaN(res.Metrics["acc"]) {
		t.Errorf("Metrics = %v, want ram_kb and acc NaN", res.Metrics)
	}
}

// TestFidelity: a study's fidelity reaches the command as its placeholder
// and as BOA_FIDELITY, and not in BOA_PARAMS, which is the configuration;
// ValidateSpace knows its name.
func TestFidelity(t *testing.T) {
	t.Parallel()
	c := sh(`echo "BOA_RESULT $1"; echo "$BOA_FIDELITY $BOA_PARAMS" >&2; exit 1`, "{epochs}")
	tr := Trial{Params: map[string]any{"x": 1.5}, Fidelity: &Fidelity{Name: "epochs", Value: 50}}
	res, err := Run(context.Background(), c, tr, nil)
	if res.Value != 50 || err == nil || !strings.Contains(err.Error(), `50 {"x":1.5}`) {
		t.Errorf("value %v, %v; want 50 and the stderr 50 {\"x\":1.5}", res.Value, err)
	}
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 2})
	if err := ValidateSpace(c, sp); err == nil || !strings.Contains(err.Error(), "epochs") {
		t.Errorf("without the fidelity's name: %v, want an unknown parameter error", err)
	}
	if err := ValidateSpace(c, sp, "epochs"); err != nil {
		t.Errorf("with the fidelity's name: %v", err)
	}
}
