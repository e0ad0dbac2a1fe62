package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/export"
)

// moStudy is a two-objective study file: accuracy (maximised) against
// latency (minimised), which trade off along x, reported by name.
const moStudy = `name: tradeoff
sampler: SAMPLER
trials: TRIALS
seed: 5
directions: {accuracy: maximize, latency: minimize}
space:
  x: {type: float, low: 0, high: 1}
  y: {type: float, low: 0, high: 1}
objective:
  command: [awk, 'BEGIN {{ print "BOA_RESULT latency=" ARGV[1] + ARGV[2] / 4 " accuracy=" ARGV[1] - ARGV[2] / 4 }}', "{x}", "{y}"]
  timeout: 30s
  logs: LOGS
`

func moFile(t *testing.T, sampler string, trials int) (file, url string) {
	body := strings.NewReplacer("SAMPLER", sampler, "TRIALS", fmt.Sprint(trials), "LOGS", filepath.Join(t.TempDir(), "logs")).Replace(moStudy)
	return writeStudy(t, body)
}

// TestRunTwoObjectives: a two-objective study file runs with boa run on
// SQLite and is resumed with a larger budget; every trial keeps both
// values; boa best prints the Pareto front (text and JSON), which is
// what no trial dominates; boa export has one column per objective.
func TestRunTwoObjectives(t *testing.T) {
	file, url := moFile(t, "random", 8)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	more := filepath.Join(filepath.Dir(file), "more.yaml")
	body, err := os.ReadFile(file)
	if err == nil {
		err = os.WriteFile(more, []byte(strings.Replace(string(body), "trials: 8", "trials: 12", 1)), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", more, "--storage", url, "--resume"); err != nil {
		t.Fatalf("resume: %v", err)
	}
	out, err := boa(t, "best", "tradeoff", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var front []export.Trial
	if err := json.Unmarshal([]byte(out), &front); err != nil {
		t.Fatalf("boa best --json: %v\n%s", err, out)
	}
	out, err = boa(t, "export", "tradeoff", "--storage", url, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 13 || !slices.Equal(rows[0][:4], []string{"number", "state", "accuracy", "latency"}) {
		t.Fatalf("export: %d rows, header %v; want 12 trials and one column per objective", len(rows)-1, rows[0])
	}
	var all [][2]float64
	for _, r := range rows[1:] {
		if r[1] != "COMPLETE" {
			t.Fatalf("trial %s is %s", r[0], r[1])
		}
		var a, l float64
		fmt.Sscan(r[2], &a)
		fmt.Sscan(r[3], &l)
		all = append(all, [2]float64{a, l})
	}
	dominated := func(p [2]float64) bool {
		for _, q := range all {
			if q[0] >= p[0] && q[1] <= p[1] && q != p {
				return true
			}
		}
		return false
	}
	want := 0
	for _, p := range all {
		if !dominated(p) {
			want++
		}
	}
	if len(front) != want || want == 0 {
		t.Fatalf("boa best: %d trials on the front, want %d", len(front), want)
	}
	for _, f := range front {
		if len(f.Values) != 2 || *f.Value != f.Values[0] || dominated([2]float64{f.Values[0], f.Values[1]}) {
			t.Errorf("front trial %d: values %v, value %v", f.Number, f.Values, *f.Value)
		}
	}
	text, err := boa(t, "best", "tradeoff", "--storage", url)
	if err != nil || !strings.Contains(text, fmt.Sprintf("Pareto front: %d trials; values: accuracy (maximize), latency (minimize)", want)) || !strings.Contains(text, "VALUES") {
		t.Errorf("boa best: %v\n%s", err, text)
	}
}

// TestRunTwoObjectivesOneValue: a command that prints one value for a
// two-objective study fails each trial with a reason that says what the
// study wants, and boa run says every trial failed.
func TestRunTwoObjectivesOneValue(t *testing.T) {
	body := strings.NewReplacer("SAMPLER", "random", "TRIALS", "2", "LOGS", filepath.Join(t.TempDir(), "logs")).Replace(moStudy)
	body = strings.Replace(body, `"BOA_RESULT latency=" ARGV[1] + ARGV[2] / 4 " accuracy=" ARGV[1] - ARGV[2] / 4`, `"BOA_RESULT " ARGV[1]`, 1)
	file, url := writeStudy(t, body)
	_, runErr := boa(t, "run", file, "--storage", url)
	if runErr == nil {
		t.Fatal("boa run succeeded with every trial failing")
	}
	out, err := boa(t, "export", "tradeoff", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatalf("%v (boa run printed: %v)", err, runErr)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	const want = "the command printed 1 value(s) on its BOA_RESULT line, but the study has 2 objective(s) (accuracy, latency): print BOA_RESULT <accuracy> <latency> or BOA_RESULT accuracy=<value> latency=<value>"
	for _, tr := range trials {
		if tr.State != "FAILED" || tr.Reason != want {
			t.Errorf("trial %d: %s %q, want FAILED %q", tr.Number, tr.State, tr.Reason, want)
		}
	}
}

// TestServeTwoObjectives: the same study created through boa serve and
// run by two boa workers: every trial has both values, the study's
// summary names its objectives and front, and the API's best is the
// front; a worker whose command prints one value fails its trial with the
// reason.
func TestServeTwoObjectives(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := client.New(s.url, "")
	body := `{"name":"mo","sampler":"random","seed":3,"trials":10,"directions":{"accuracy":"maximize","latency":"minimize"},
		"space":{"x":{"type":"float","low":0,"high":1},"y":{"type":"float","low":0,"high":1}}}`
	if _, err := c.CreateStudy(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
	cmd := []string{"--", "awk", `BEGIN {{ print "BOA_RESULT " ARGV[1] - ARGV[2] / 4 " " ARGV[1] + ARGV[2] / 4 }}`, "{x}", "{y}"}
	w1, w2 := startWorker(t, s.url, "mo", cmd...), startWorker(t, s.url, "mo", cmd...)
	for _, w := range []*workerProc{w1, w2} {
		if err := w.wait(t, 45*time.Second); err != nil {
			t.Fatalf("worker: %v\n%s", err, w.stderr)
		}
	}
	st, err := c.Study(ctx, "mo")
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Objectives) != 2 || st.Objectives[0] != (client.Objective{Name: "accuracy", Direction: "maximize"}) || len(st.Front) == 0 {
		t.Fatalf("study: objectives %v, front %v", st.Objectives, st.Front)
	}
	trials := studyTrials(t, s.url, "mo")
	if len(trials) != 10 {
		t.Fatalf("%d trials, want 10", len(trials))
	}
	for _, tr := range trials {
		if tr.State != "COMPLETE" || len(tr.Values) != 2 {
			t.Errorf("trial %d: %s, values %v", tr.Number, tr.State, tr.Values)
		}
	}
	front, err := c.Front(ctx, "mo")
	if err != nil {
		t.Fatal(err)
	}
	var numbers []int
	for _, f := range front {
		numbers = append(numbers, f.Number)
	}
	if !slices.Equal(numbers, st.Front) {
		t.Errorf("best: trials %v, the study's front %v", numbers, st.Front)
	}
	if _, err := c.Best(ctx, "mo"); err == nil || !strings.Contains(err.Error(), "Front") {
		t.Errorf("Best of a two-objective study: %v, want an error pointing to Front", err)
	}

	if _, err := c.SetBudget(ctx, "mo", 11); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, s.url, "mo", "--", "sh", "-c", "echo BOA_RESULT 0.5")
	if err := w.wait(t, 45*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	last := studyTrials(t, s.url, "mo")[10]
	if last.State != "FAILED" || !strings.Contains(last.Reason, "printed 1 value(s) on its BOA_RESULT line, but the study has 2 objective(s) (accuracy, latency)") {
		t.Errorf("one value: trial %s %q", last.State, last.Reason)
	}
}
