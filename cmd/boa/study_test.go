package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boaopt/boa/export"
)

// boa runs the CLI in-process and returns its stdout.
func boa(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	err := cmd.ExecuteContext(context.Background())
	return out.String(), err
}

func writeStudy(t *testing.T, body string) (file, url string) {
	t.Helper()
	dir := t.TempDir()
	file = filepath.Join(dir, "study.yaml")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return file, "sqlite:" + filepath.Join(dir, "boa.db")
}

const sphereStudy = `name: sphere
sampler: gpbo
trials: 12
workers: 2
seed: 3
space:
  x: {type: float, low: -2, high: 2}
  n: {type: int, low: 0, high: 3}
  act: {type: categorical, choices: [relu, tanh]}
objective:
  command: [sh, -c, 'echo "BOA_REPORT 1 $0"; echo "BOA_METRIC n2 $(($1*$1))"; echo "BOA_RESULT $0"', "{x}", "{n}"]
  timeout: 30s
  logs: LOGS
`

func TestRunStudyFileThenInspect(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(sphereStudy, "LOGS", filepath.Join(t.TempDir(), "logs")))
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	// Resuming a finished study adds nothing; running it again without
	// --resume is refused.
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", file, "--storage", url); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("rerun without --resume: %v", err)
	}

	out, err := boa(t, "export", "sphere", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	if len(trials) != 12 {
		t.Fatalf("%d trials after run and resume, want 12", len(trials))
	}
	batches := map[int]bool{}
	for _, tr := range trials {
		x := tr.Params["x"].(float64)
		n := tr.Params["n"].(float64)
		if tr.State != "COMPLETE" || *tr.Value != x || tr.Metrics["n2"] != n*n || len(tr.Reports) != 1 {
			t.Fatalf("trial %+v: want COMPLETE with value x, metric n², one report", tr)
		}
		if tr.Batch == nil || *tr.Batch <= 0 || batches[*tr.Batch] {
			t.Fatalf("trial %d has batch %v; each trial asked for alone wants a batch of its own", tr.Number, tr.Batch)
		}
		batches[*tr.Batch] = true
		// gpbo's design is max(5, d + 1) = 5 points; with two workers a
		// sixth may be asked before the fifth completes.
		if want := map[bool]string{true: "design", false: "model"}[tr.Number < 5]; tr.Number != 5 && tr.Origin != want {
			t.Fatalf("trial %d has origin %q, want %q", tr.Number, tr.Origin, want)
		}
	}

	// A write that fails (a full disk) is an error, also when it shows
	// only at the file's close.
	if _, err := os.Stat("/dev/full"); err == nil {
		if _, err := boa(t, "export", "sphere", "--storage", url, "-o", "/dev/full"); err == nil || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("export to a full disk: %v, want an error", err)
		}
	}
	out, err = boa(t, "export", "sphere", "--storage", url, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 13 || strings.Join(rows[0], ",") != "number,state,value,x,n,act,metric:n2,reason,batch,origin,feasible" {
		t.Fatalf("csv: %v, %d rows, header %v", err, len(rows), rows[0])
	}
	for i, tr := range trials {
		if got := rows[i+1][8]; got != strconv.Itoa(*tr.Batch) {
			t.Fatalf("csv row %d: batch %q, JSON export says %d", i+1, got, *tr.Batch)
		}
		if got := rows[i+1][9]; got != tr.Origin {
			t.Fatalf("csv row %d: origin %q, JSON export says %q", i+1, got, tr.Origin)
		}
	}

	out, err = boa(t, "best", "sphere", "--storage", url)
	if err != nil || !strings.Contains(out, "best trial") || !strings.Contains(out, "act = ") {
		t.Fatalf("best: %v\n%s", err, out)
	}
	out, err = boa(t, "studies", "--storage", url)
	if err != nil || !strings.Contains(out, "sphere") || !strings.Contains(out, "12") {
		t.Fatalf("studies: %v\n%s", err, out)
	}
	out, err = boa(t, "trials", "sphere", "--storage", url)
	if err != nil || strings.Count(out, "COMPLETE") != 12 {
		t.Fatalf("trials: %v\n%s", err, out)
	}
	if _, err := boa(t, "best", "nosuch", "--storage", url); err == nil || !strings.Contains(err.Error(), "boa studies") {
		t.Fatalf("best of an unknown study: %v", err)
	}
}

func TestRunStudyFileFailures(t *testing.T) {
	study := strings.ReplaceAll(sphereStudy, `'echo "BOA_REPORT 1 $0"; echo "BOA_METRIC n2 $(($1*$1))"; echo "BOA_RESULT $0"'`, `'if [ "$1" = 2 ]; then exit 3; fi; echo "BOA_RESULT $0"'`)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	if _, err := boa(t, "run", file, "--storage", url, "--trials", "12"); err != nil {
		t.Fatal(err)
	}
	out, _ := boa(t, "export", "sphere", "--storage", url, "--format", "json")
	var trials []export.Trial
	_ = json.Unmarshal([]byte(out), &trials)
	failed := 0
	for _, tr := range trials {
		if tr.Params["n"].(float64) == 2 {
			failed++
			if tr.State != "FAILED" || !strings.Contains(tr.Reason, "exit code 3") {
				t.Errorf("trial %d with n = 2: %s %q", tr.Number, tr.State, tr.Reason)
			}
		}
	}
	if len(trials) != 12 || failed == 0 {
		t.Fatalf("%d trials, %d with n = 2; want 12 trials and some failures", len(trials), failed)
	}
}

// TestRunStudyFileAllFail: a run in which no trial completes (a typo in
// the command, say) exits with an error that shows the most common
// failure and where the output of its first trial is.
func TestRunStudyFileAllFail(t *testing.T) {
	study := strings.ReplaceAll(sphereStudy, `'echo "BOA_REPORT 1 $0"; echo "BOA_METRIC n2 $(($1*$1))"; echo "BOA_RESULT $0"'`, `'echo oops >&2; exit 3'`)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	_, err := boa(t, "run", file, "--storage", url, "--trials", "3")
	if err == nil || !strings.Contains(err.Error(), "all 3 trials failed; most common reason (3×): exit code 3") || !strings.Contains(err.Error(), "trial-0.{out,err}") {
		t.Fatalf("err = %v; want one showing trial 0's failure and its logs", err)
	}
}

func TestRunStudyFileBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, from, to, want string
	}{
		{"unknown placeholder", `"{n}"]`, `"{m}"]`, "unknown parameter {m}"},
		{"no objective", "objective:", "objectivex:", "objectivex"},
		{"low >= high", "low: -2, high: 2", "low: 2, high: -2", "space.x"},
		{"unknown sampler", "sampler: gpbo", "sampler: magic", "unknown sampler"},
		{"missing program", "command: [sh,", "command: [no-such-boa-program,", `command[0] "no-such-boa-program": executable file not found in $PATH`},
		{"conditional placeholder", "n: {type: int, low: 0, high: 3}", "n: {type: int, low: 0, high: 3, when: {act: [relu]}}", "{n} is a conditional parameter"},
		{"env name with =", "timeout: 30s", "timeout: 30s\n  env: {\"A=B\": x}", "objective.env: variable name \"A=B\" contains '='"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Logs in a temporary folder, should a case run trials.
			study := strings.ReplaceAll(sphereStudy, "LOGS", filepath.Join(t.TempDir(), "logs"))
			file, url := writeStudy(t, strings.Replace(study, tc.from, tc.to, 1))
			_, err := boa(t, "run", file, "--storage", url)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want mention of %q", err, tc.want)
			}
		})
	}
	// A built-in function takes float parameters: an int one would fail
	// every trial, so the file is refused.
	file, url := writeStudy(t, "name: f\ntrials: 3\nspace:\n  x: {type: float, low: 0, high: 1}\n  n: {type: int, low: 0, high: 3}\nobjective: {function: levy}\n")
	if _, err := boa(t, "run", file, "--storage", url); err == nil || !strings.Contains(err.Error(), "levy takes float parameters; n is int") {
		t.Fatalf("err = %v, want a refusal of the int parameter", err)
	}
}

// TestRunStudyFileWarnings: a protocol line the runner drops is printed
// as a warning and does not fail the trial.
func TestRunStudyFileWarnings(t *testing.T) {
	study := strings.ReplaceAll(sphereStudy, `echo "BOA_METRIC n2 $(($1*$1))"`, `echo "BOA_METRIC n2 lots"`)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	var out, errOut bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs([]string{"run", file, "--storage", url, "--trials", "2"})
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(errOut.String(), "warning: "); got != 2 || !strings.Contains(errOut.String(), "BOA_METRIC n2 lots") {
		t.Errorf("want one warning per trial naming the dropped line; stderr:\n%s", errOut.String())
	}
	if !strings.Contains(out.String(), "2 complete") {
		t.Errorf("the trials should complete:\n%s", out.String())
	}
}

// TestRunAutoSaysWhichSampler: auto picks a mixed-space sampler for a
// study with a categorical parameter and the summary names it.
func TestRunAutoSaysWhichSampler(t *testing.T) {
	study := strings.Replace(sphereStudy, "sampler: gpbo", "sampler: auto", 1)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	out, err := boa(t, "run", file, "--storage", url, "--trials", "8")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "sampler auto (cocabo)") {
		t.Fatalf("summary does not name auto's choice:\n%s", out)
	}
	if out, err := boa(t, "studies", "--storage", url); err != nil || !strings.Contains(out, "auto (cocabo)") {
		t.Fatalf("boa studies does not name auto's choice: %v\n%s", err, out)
	}
}

// TestRunStudyFileTransform: a study file's transform is kept with the
// study and named in the summary; a value the log cannot take fails its
// trial only; resuming with another transform is refused.
func TestRunStudyFileTransform(t *testing.T) {
	// The objective is x, so about a quarter of the trials report a value ≤ 0.
	study := strings.Replace(sphereStudy, "sampler: gpbo", "sampler: gpbo\ntransform: log", 1)
	study = strings.ReplaceAll(study, `'echo "BOA_REPORT 1 $0"; echo "BOA_METRIC n2 $(($1*$1))"; echo "BOA_RESULT $0"'`, `'echo "BOA_RESULT $0"'`)
	study = strings.Replace(study, "low: -2, high: 2", "low: -1, high: 3", 1)
	file, url := writeStudy(t, strings.ReplaceAll(study, "LOGS", filepath.Join(t.TempDir(), "logs")))
	out, err := boa(t, "run", file, "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "sampler gpbo, transform log") {
		t.Fatalf("summary does not name the transform:\n%s", out)
	}
	out, _ = boa(t, "export", "sphere", "--storage", url, "--format", "json")
	var trials []export.Trial
	_ = json.Unmarshal([]byte(out), &trials)
	failed := 0
	for _, tr := range trials {
		x := tr.Params["x"].(float64)
		switch {
		case x <= 0 && (tr.State != "FAILED" || !strings.Contains(tr.Reason, "transform log needs values > 0")):
			t.Errorf("trial %d with x = %v: %s %q", tr.Number, x, tr.State, tr.Reason)
		case x <= 0:
			failed++
		case tr.State != "COMPLETE":
			t.Errorf("trial %d with x = %v: %s %q", tr.Number, x, tr.State, tr.Reason)
		}
	}
	if len(trials) != 12 || failed == 0 {
		t.Fatalf("%d trials, %d with x ≤ 0; want 12 trials and some of them", len(trials), failed)
	}
	_, err = boa(t, "run", file, "--storage", url, "--resume", "--transform", "copula")
	if err == nil || !strings.Contains(err.Error(), "has transform log, the file says copula") {
		t.Fatalf("resume with another transform: %v", err)
	}
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatal(err)
	}
}
