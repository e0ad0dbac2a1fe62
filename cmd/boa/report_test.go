package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// TestProgressStartsFromTheStudysBest: the progress lines of a resumed run
// show the best of the whole study, not only of the trials this run adds,
// and its failures so far.
func TestProgressStartsFromTheStudysBest(t *testing.T) {
	before := []study.Trial{
		{Number: 0, State: study.Complete, Value: 3.5},
		{Number: 1, State: study.Failed, Reason: "exit code 1"},
	}
	var w bytes.Buffer
	progress := newProgress(context.Background(), &w, 4, 2, false, study.Minimize, before)
	progress(study.Trial{Number: 2, State: study.Complete, Value: 22, RetryOf: -1})
	progress(study.Trial{Number: 3, State: study.Complete, Value: 1.25, RetryOf: -1})
	want := []string{"[3/4] trial 2  value 22            best 3.5  (1 failed)", "[4/4] trial 3  value 1.25          best 1.25  (1 failed)"}
	if got := strings.Split(strings.TrimSpace(w.String()), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("progress lines\n%q\nwant\n%q", got, want)
	}
}

// TestProgressCountsReRunsOnce: a trial interrupted by Ctrl-C is FAILED
// and re-queued, so it is not counted, and its re-run in a resumed run
// is; the count never passes the budget ([5/4] before).
func TestProgressCountsReRunsOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var w bytes.Buffer
	progress := newProgress(ctx, &w, 4, 0, false, study.Minimize, nil)
	progress(study.Trial{Number: 0, State: study.Complete, Value: 3.5, RetryOf: -1})
	cancel()
	progress(study.Trial{Number: 1, State: study.Failed, Reason: "interrupted", RetryOf: -1})
	before := []study.Trial{
		{Number: 0, State: study.Complete, Value: 3.5, RetryOf: -1},
		{Number: 1, State: study.Failed, Reason: "interrupted", RetryOf: -1},
	}
	progress = newProgress(context.Background(), &w, 4, 1, false, study.Minimize, before)
	progress(study.Trial{Number: 2, State: study.Complete, Value: 2, RetryOf: 1})
	progress(study.Trial{Number: 3, State: study.Complete, Value: 5, RetryOf: -1})
	progress(study.Trial{Number: 4, State: study.Complete, Value: 1, RetryOf: -1})
	want := []string{
		"[1/4] trial 0  value 3.5           best 3.5",
		"[1/4] trial 1  FAILED: interrupted  best 3.5",
		"[2/4] trial 2  value 2             best 2",
		"[3/4] trial 3  value 5             best 2",
		"[4/4] trial 4  value 1             best 1",
	}
	if got := strings.Split(strings.TrimSpace(w.String()), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("progress lines\n%q\nwant\n%q", got, want)
	}
}

// TestRunSaysWhenTrialsAreStillRunning: a --resume that ends with trials
// RUNNING in another process's hands (here the test's, as after a kill -9
// of a run whose lease has not yet run out) says so, since the study is
// then short of its budget. Such a trial is not counted done; once its
// lease has passed, the next --resume re-runs it, and the progress counts
// the re-run within the budget (it showed "1 of 12 done" and then
// "[13/12]").
func TestRunSaysWhenTrialsAreStillRunning(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(sphereStudy, "LOGS", filepath.Join(t.TempDir(), "logs")))
	cfg, err := config.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := study.Create(ctx, store, study.Spec{Name: cfg.Name, Space: cfg.Space, Sampler: cfg.SamplerName(), SamplerOptions: cfg.Sampler.Options, Seed: cfg.Seed, Budget: cfg.Trials})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	resume := func(args ...string) (stdout, stderr string, err error) {
		t.Helper()
		var out, errOut bytes.Buffer
		cmd := rootCmd()
		cmd.SetArgs(append([]string{"run", file, "--storage", url, "--resume"}, args...))
		cmd.SetOut(&out)
		cmd.SetErr(&errOut)
		err = cmd.ExecuteContext(ctx)
		return out.String(), errOut.String(), err
	}
	// The trial's holder is this (live) process: the run leaves it
	// RUNNING, fails, and says when its lease runs out.
	out, errOut, err := resume()
	for _, want := range []string{"0 of 12 trials done, 1 running", "[11/12]"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("first resume: stderr lacks %q:\n%s", want, errOut)
		}
	}
	if err == nil || !regexp.MustCompile(`^trial 0 is still RUNNING, held by pid \d+ on host .* \(running\); if that process dies, .*, boa run \S+ --resume re-runs them after \d\d:\d\d:\d\d \S+ \(in \d+s\), when their lease runs out$`).MatchString(err.Error()) {
		t.Errorf("first resume: error %v", err)
	}
	if !strings.Contains(out, "11 complete") {
		t.Errorf("first resume: stdout:\n%s", out)
	}
	time.Sleep(300 * time.Millisecond)
	out, errOut, err = resume("--lease", "200ms")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"11 of 12 trials done, 1 running", "[12/12]"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("second resume: stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "[13/12]") || !strings.Contains(out, "12 complete") {
		t.Errorf("second resume:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
}

// TestProgressCountsFailuresAndPrunes: the plain lines carry the failed
// and pruned counts once there are any, and each failure's reason on its
// line; a trial's re-run un-counts its interruption.
func TestProgressCountsFailuresAndPrunes(t *testing.T) {
	var w bytes.Buffer
	progress := newProgress(context.Background(), &w, 5, 0, false, study.Minimize, nil)
	progress(study.Trial{Number: 0, State: study.Complete, Value: 2, RetryOf: -1})
	progress(study.Trial{Number: 1, State: study.Failed, Reason: "exit status 3\nTraceback ...", RetryOf: -1})
	progress(study.Trial{Number: 2, State: study.Pruned, Value: 7, Reports: []study.Report{{Step: 4, Value: 7}}, RetryOf: -1})
	progress(study.Trial{Number: 3, State: study.Failed, Reason: "stale: no heartbeat for 30s", RetryOf: -1})
	progress(study.Trial{Number: 4, State: study.Complete, Value: 1, RetryOf: 3})
	want := []string{
		"[1/5] trial 0  value 2             best 2",
		"[2/5] trial 1  FAILED: exit status 3  best 2  (1 failed)",
		"[3/5] trial 2  PRUNED at step 4, value 7  best 2  (1 failed, 1 pruned)",
		"[4/5] trial 3  FAILED: stale: no heartbeat for 30s  best 2  (2 failed, 1 pruned)",
		"[5/5] trial 4  value 1             best 1  (1 failed, 1 pruned)",
	}
	if got := strings.Split(strings.TrimSpace(w.String()), "\n"); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("progress lines\n%q\nwant\n%q", got, want)
	}
}

// TestProgressBarShowsFailures: the bar (on a terminal) is described by the
// best value and the counts, and each failure's reason is printed above it.
// The bar is drawn into a buffer: what newProgress does on a terminal.
func TestProgressBarShowsFailures(t *testing.T) {
	var w bytes.Buffer
	progress := newTally(context.Background(), study.Minimize, nil).bar(&w, 4)
	progress(study.Trial{Number: 0, State: study.Complete, Value: 2.5, RetryOf: -1})
	progress(study.Trial{Number: 1, State: study.Failed, Reason: "exit status 1\nmore", RetryOf: -1})
	progress(study.Trial{Number: 2, State: study.Pruned, Value: 3, RetryOf: -1})
	out := w.String()
	for _, want := range []string{"trial 1 FAILED: exit status 1\n", "best 2.5 · 1 failed · 1 pruned", "3/4"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar output lacks %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "more") {
		t.Errorf("the reason's second line is shown:\n%q", out)
	}
}

// TestRunSummaryPointsToTrials: when trials failed, boa run's end summary
// says how many and where their reasons are.
func TestRunSummaryPointsToTrials(t *testing.T) {
	file, url := writeStudy(t, `name: flaky
sampler: random
trials: 8
seed: 4
space:
  x: {type: float, low: -1, high: 1}
objective:
  command: [sh, -c, 'case "$0" in -*) echo "BOA_RESULT $0";; *) echo "diverged" >&2; exit 3;; esac', "{x}"]
  timeout: 30s
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	out, err := boa(t, "run", file, "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := boa(t, "export", "flaky", "--storage", url, "--format", "csv")
	if err != nil {
		t.Fatal(err)
	}
	failed := strings.Count(trials, "FAILED")
	if failed == 0 || failed == 8 {
		t.Fatalf("%d of 8 trials failed; the test wants some, not all:\n%s", failed, trials)
	}
	if want := fmt.Sprintf("%d trials failed: boa trials flaky lists them with their reasons", failed); !strings.Contains(out, want) {
		t.Errorf("summary lacks %q:\n%s", want, out)
	}
}
