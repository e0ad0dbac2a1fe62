package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/export"
)

// constrainedCommand is a trial that maximises x under ram_kb = 1000·x
// <= 500, and whose mode says what else it does: crash (FAILED, not
// computable), report ram_kb as nan, or not report it at all (both
// COMPLETE and infeasible) [spec constrained-autotinyml §1].
// Its braces are doubled: a command's {name} is a parameter.
const constrainedScript = `case "$1" in crash) echo out of memory >&2; exit 3;; nan) echo "BOA_METRIC ram_kb nan";; silent) ;; *) echo "BOA_METRIC ram_kb $(awk "BEGIN{{print $0*1000}}")";; esac; echo "BOA_RESULT $0"`

const constrainedCommand = `[sh, -c, '` + constrainedScript + `', "{x}", "{mode}"]`

const constrainedSpace = `space:
  x: {type: float, low: 0, high: 1}
  mode: {type: categorical, choices: [ok, ok2, crash, nan, silent]}
`

const constrainedStudy = `name: tiny
direction: maximize
sampler: random
trials: 30
seed: 2
constraints:
  ram_kb: {max: 500}
` + constrainedSpace + `objective:
  command: ` + constrainedCommand + `
  logs: LOGS
`

// checkConstrainedTrials checks every trial of the constrained study by its
// mode and x: none lost, a crash FAILED and not judged, the others
// COMPLETE and judged with their reason. It returns the number of the best
// feasible trial.
func checkConstrainedTrials(t *testing.T, trials []export.Trial, budget int) int {
	t.Helper()
	if len(trials) != budget {
		t.Fatalf("%d trials, want %d: none may be lost", len(trials), budget)
	}
	best, bestX := -1, -1.0
	modes := map[string]int{}
	for _, tr := range trials {
		x, mode := tr.Params["x"].(float64), tr.Params["mode"].(string)
		modes[mode]++
		var want string
		feasible := "infeasible"
		switch {
		case mode == "crash":
			want, feasible = "FAILED exit code 3: out of memory", "not judged"
		case mode == "nan":
			want = "COMPLETE infeasible: ram_kb is NaN"
		case mode == "silent":
			want = "COMPLETE infeasible: ram_kb not reported"
		case math.Abs(tr.Metrics["ram_kb"]-1000*x) > 1e-3:
			t.Errorf("trial %d (x %v): ram_kb %v, want 1000·x (to awk's 6 digits)", tr.Number, x, tr.Metrics["ram_kb"])
		case tr.Metrics["ram_kb"] > 500:
			want = fmt.Sprintf("COMPLETE infeasible: ram_kb = %g, want <= 500", tr.Metrics["ram_kb"])
		default:
			want, feasible = "COMPLETE ", "feasible"
			if x > bestX {
				best, bestX = tr.Number, x
			}
		}
		got := map[*bool]string{nil: "not judged"}[tr.Feasible]
		if tr.Feasible != nil {
			got = map[bool]string{true: "feasible", false: "infeasible"}[*tr.Feasible]
		}
		if tr.State+" "+tr.Reason != want || got != feasible {
			t.Errorf("trial %d (x %v, %s): %s %q, %s; want %q, %s", tr.Number, x, mode, tr.State, tr.Reason, got, want, feasible)
		}
	}
	for _, m := range []string{"ok", "crash", "nan", "silent"} {
		if modes[m] == 0 {
			t.Fatalf("no trial of mode %s among %v: choose another seed", m, modes)
		}
	}
	if best < 0 {
		t.Fatal("no feasible trial: choose another seed")
	}
	return best
}

// TestRunConstrainedStudy: a study file with a constraint, run by boa run
// on SQLite, ends with boa best naming the best feasible trial; the trial
// that crashes is FAILED, those over the limit or without the metric
// (never reported, or nan) are COMPLETE and infeasible with their reason;
// boa trials, boa export and the run's summary show it.
func TestRunConstrainedStudy(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(constrainedStudy, "LOGS", filepath.Join(t.TempDir(), "logs")))
	summary, err := boa(t, "run", file, "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "export", "tiny", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	best := checkConstrainedTrials(t, trials, 30)

	out, err = boa(t, "best", "tiny", "--storage", url)
	if want := fmt.Sprintf("best feasible trial (constraints ram_kb <= 500) %d (maximize)", best); err != nil || !strings.Contains(out, want) {
		t.Errorf("boa best: %v\n%s\nwant %q", err, out, want)
	}
	var complete, feasible, failed int
	for _, tr := range trials {
		switch {
		case tr.State == "FAILED":
			failed++
		case *tr.Feasible:
			feasible++
			complete++
		default:
			complete++
		}
	}
	if want := fmt.Sprintf("constraints ram_kb <= 500: %d feasible, %d infeasible, %d failed (not computable)", feasible, complete-feasible, failed); !strings.Contains(summary, want) {
		t.Errorf("boa run's summary does not say %q:\n%s", want, summary)
	}
	if want := fmt.Sprintf("best feasible: trial %d", best); !strings.Contains(summary, want) {
		t.Errorf("boa run's summary does not say %q:\n%s", want, summary)
	}

	out, err = boa(t, "trials", "tiny", "--storage", url)
	if err != nil || !strings.Contains(out, "FEASIBLE") || !strings.Contains(out, "infeasible: ram_kb is NaN") || !strings.Contains(out, "infeasible: ram_kb not reported") {
		t.Errorf("boa trials: %v\n%s", err, out)
	}
	out, err = boa(t, "export", "tiny", "--storage", url, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 31 {
		t.Fatalf("csv: %v, %d rows", err, len(rows))
	}
	col := slices.Index(rows[0], "feasible")
	for i, tr := range trials {
		want := ""
		if tr.Feasible != nil {
			want = strconv.FormatBool(*tr.Feasible)
		}
		if got := rows[i+1][col]; got != want {
			t.Errorf("csv row %d: feasible %q, want %q", i+1, got, want)
		}
	}
}

// TestRunNoFeasibleTrial: with every trial over its limit boa best says
// there is no feasible trial yet, and how many completed, and fails as
// it does when none completed.
func TestRunNoFeasibleTrial(t *testing.T) {
	body := strings.ReplaceAll(strings.ReplaceAll(constrainedStudy, "{max: 500}", "{max: -1}"), "trials: 30", "trials: 6")
	file, url := writeStudy(t, strings.ReplaceAll(body, "LOGS", filepath.Join(t.TempDir(), "logs")))
	summary, err := boa(t, "run", file, "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "no feasible trial yet") {
		t.Errorf("summary:\n%s", summary)
	}
	_, err = boa(t, "best", "tiny", "--storage", url)
	if err == nil || !strings.Contains(err.Error(), "has no feasible trial yet: ") || !strings.Contains(err.Error(), "complete, all infeasible") {
		t.Errorf("boa best: %v", err)
	}
}

// TestRunWarnsOfAMetricNeverReported: a constrained metric that the first
// completed trials never report is most often a typo; boa run says so,
// once, naming what they did report.
func TestRunWarnsOfAMetricNeverReported(t *testing.T) {
	body := strings.ReplaceAll(constrainedStudy, "ram_kb: {max: 500}", "ramkb: {max: 500}")
	body = strings.ReplaceAll(strings.ReplaceAll(body, "trials: 30", "trials: 8"), "LOGS", filepath.Join(t.TempDir(), "logs"))
	file, url := writeStudy(t, body)
	var stdout, stderr bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs([]string{"run", file, "--storage", url})
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "boa: warning: none of the first 3 completed trials reported ramkb, so every one is infeasible"
	if n := strings.Count(stderr.String(), want); n != 1 || !strings.Contains(stderr.String(), "(the trials reported: ram_kb)") {
		t.Errorf("the warning appears %d times, want once, naming ram_kb:\n%s", n, stderr.String())
	}
}

// TestRunConstraintsBadInput: limits no value can meet, and one on a
// metric a built-in function does not report, are refused before a trial
// runs, naming the line.
func TestRunConstraintsBadInput(t *testing.T) {
	for body, want := range map[string]string{
		strings.ReplaceAll(constrainedStudy, "{max: 500}", "{min: 3, max: 1}"): "line 7: constraints.ram_kb: min 3 is greater than max 1",
		strings.ReplaceAll(constrainedStudy, "{max: 500}", "{maximum: 500}"):   "line 7: constraints.ram_kb.maximum: unknown field",
		strings.ReplaceAll(constrainedStudy, "{max: 500}", "{max: small}"):     `line 7: constraints.ram_kb.max: want a number, got "small"`,
		"name: f\ntrials: 3\nconstraints: {ram_kb: {max: 1}}\nspace:\n  x1: {type: float, low: -5, high: 10}\n  x2: {type: float, low: 0, high: 15}\nobjective: {function: branin}\n": "line 3: constraints.ram_kb: the built-in function branin does not report ram_kb",
	} {
		file, url := writeStudy(t, body)
		if _, err := boa(t, "run", file, "--storage", url); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("boa run: %v, want an error with %q", err, want)
		}
	}
}

// TestE2EWorkerConstrainedStudy: the same study created through the HTTP
// API of a real boa serve and run by a real boa worker: the NaN metric
// crosses the API, GET .../best is the best feasible trial, and boa best
// on the server's SQLite file names it too. Bad constraints are a 400.
func TestE2EWorkerConstrainedStudy(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "boa.db")
	s := startServe(t, db)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c := client.New(s.url, "")
	space := `"space":{"x":{"type":"float","low":0,"high":1},"mode":{"type":"categorical","choices":["ok","ok2","crash","nan","silent"]}}`
	_, err := c.CreateStudy(ctx, []byte(`{"name":"bad","constraints":{"ram_kb":{"min":3,"max":1}},`+space+`}`))
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || !strings.Contains(err.Error(), "constraints.ram_kb: min 3 is greater than max 1") {
		t.Errorf("creating a study with min > max: %v, want a 400 naming the limit", err)
	}
	if _, err := c.CreateStudy(ctx, []byte(`{"name":"tiny","direction":"maximize","sampler":"random","seed":2,"trials":30,"constraints":{"ram_kb":{"max":500}},`+space+`}`)); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, s.url, "tiny", "--", "sh", "-c", constrainedScript, "{x}", "{mode}")
	if err := w.wait(t, 60*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	raw, _ := json.Marshal(studyTrials(t, s.url, "tiny"))
	var trials []export.Trial
	if err := json.Unmarshal(raw, &trials); err != nil {
		t.Fatal(err)
	}
	best := checkConstrainedTrials(t, trials, 30)
	b, err := c.Best(ctx, "tiny")
	if err != nil || b.Number != best || b.Feasible == nil || !*b.Feasible {
		t.Errorf("GET .../best = trial %d (feasible %v), %v; want trial %d", b.Number, b.Feasible, err, best)
	}
	st, err := c.Study(ctx, "tiny")
	if err != nil || st.BestTrial == nil || *st.BestTrial != best {
		t.Errorf("GET .../tiny: best trial %v, %v; want %d", st.BestTrial, err, best)
	}
	out, err := boa(t, "best", "tiny", "--storage", db)
	if want := fmt.Sprintf("best feasible trial (constraints ram_kb <= 500) %d", best); err != nil || !strings.Contains(out, want) {
		t.Errorf("boa best: %v\n%s\nwant %q", err, out, want)
	}
}
