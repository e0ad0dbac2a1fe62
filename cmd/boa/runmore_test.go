package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// storedTrials opens the study name in url and returns its trials.
func storedTrials(t *testing.T, url, name string) []study.Trial {
	t.Helper()
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := study.Open(ctx, store, name)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return trials
}

func completeParams(t *testing.T, trials []study.Trial) []string {
	t.Helper()
	var out []string
	for _, tr := range trials {
		if tr.State != study.Complete {
			t.Fatalf("trial %d is %v (%s), want COMPLETE", tr.Number, tr.State, tr.Reason)
		}
		out = append(out, paramKey(tr.Params))
	}
	return out
}

const moreStudy = `name: more
sampler: gpbo
trials: 8
seed: 2
space:
  x: {type: float, low: -5, high: 5}
  y: {type: float, low: 0, high: 1}
objective:
  command: [sh, -c, 'echo "BOA_RESULT $0"', "{x}"]
  logs: LOGS
`

// writeMore writes a variant of moreStudy with its logs in a temporary
// directory.
func writeMore(t *testing.T, body string) (file, url string) {
	t.Helper()
	return writeStudy(t, strings.Replace(body, "LOGS", filepath.Join(t.TempDir(), "logs"), 1))
}

// TestRunMoreTrials: run 8, look, run 4 more: --resume --trials 12 keeps
// the first 8 and proposes the next 4 as a 12-trial study resumed at 8
// does (the GP sees them all).
func TestRunMoreTrials(t *testing.T) {
	file, url := writeMore(t, moreStudy)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	first := completeParams(t, storedTrials(t, url, "more"))
	if _, err := boa(t, "run", file, "--storage", url, "--resume", "--trials", "12"); err != nil {
		t.Fatal(err)
	}
	got := completeParams(t, storedTrials(t, url, "more"))
	if len(got) != 12 || !slices.Equal(got[:8], first) {
		t.Fatalf("after --resume --trials 12: %d trials %v; want 12 starting with %v", len(got), got, first)
	}
	// The same study created with 12 and stopped at 8 (--trials 8 on
	// creation, the file's 12 on resume).
	file2, url2 := writeMore(t, strings.Replace(moreStudy, "trials: 8", "trials: 12", 1))
	if _, err := boa(t, "run", file2, "--storage", url2, "--trials", "8"); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", file2, "--storage", url2, "--resume"); err != nil {
		t.Fatal(err)
	}
	if want := completeParams(t, storedTrials(t, url2, "more")); !slices.Equal(got, want) {
		t.Errorf("8 raised to 12 and 12 resumed at 8 differ:\n%v\n%v", got, want)
	}
}

// TestRunStudyTimeout: a study file's timeout ends the run (no trial
// starts after it, the running one finishes) without an error.
func TestRunStudyTimeout(t *testing.T) {
	file, url := writeMore(t, strings.NewReplacer("trials: 8", "timeout: 1s",
		`'echo "BOA_RESULT $0"'`, `'sleep 0.3; echo "BOA_RESULT $0"'`).Replace(moreStudy))
	start := time.Now()
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	trials := storedTrials(t, url, "more")
	if n := len(completeParams(t, trials)); n < 2 || n > 5 {
		t.Errorf("timeout 1s with 0.3 s trials: %d trials in %v; want about 4", n, time.Since(start))
	}
}

// TestRunUntilStopped: a study without a budget runs until Ctrl-C, which
// ends it cleanly (exit 0, the running trial re-queued).
func TestRunUntilStopped(t *testing.T) {
	file, url := writeMore(t, strings.NewReplacer("trials: 8\n", "",
		`'echo "BOA_RESULT $0"'`, `'sleep 0.05; echo "BOA_RESULT $0"'`).Replace(moreStudy))
	w := startWorkerArgs(t, "run", file, "--storage", url)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) && !strings.Contains(w.stderr.String(), "trial 5 ") {
		time.Sleep(20 * time.Millisecond)
	}
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := w.wait(t, time.Minute); err != nil {
		t.Fatalf("boa run stopped by Ctrl-C: %v, want exit 0\n%s", err, w.stderr)
	}
	if !strings.Contains(w.stderr.String(), "no budget") || !strings.Contains(w.stderr.String(), "stopped") {
		t.Errorf("stderr does not say the run had no budget and was stopped:\n%s", w.stderr)
	}
	complete := 0
	for _, tr := range storedTrials(t, url, "more") {
		if tr.State == study.Complete {
			complete++
		}
	}
	if complete < 5 {
		t.Errorf("%d COMPLETE trials after the 6th was reported, want at least 5", complete)
	}
}

// TestRunFromAnotherDirectory: the quickstart's command is relative to
// its study file, so it runs from any directory.
func TestRunFromAnotherDirectory(t *testing.T) {
	quickstart, err := filepath.Abs("../../examples/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cmd := exec.Command(boaproc.Binary(t), "run", quickstart, "--trials", "4", "--storage", "sqlite:"+filepath.Join(dir, "boa.db"))
	cmd.Dir, cmd.Env = dir, e2eEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("boa run %s from %s: %v\n%s", quickstart, dir, err, out)
	}
	if n := len(completeParams(t, storedTrials(t, "sqlite:"+filepath.Join(dir, "boa.db"), "quickstart"))); n != 4 {
		t.Errorf("%d trials, want 4", n)
	}
}

// TestRunStopsOnRepeatedFailure: a command that fails the same way every
// time (here a script that does not exist) stops the run after its first
// three trials, with that reason and a non-zero exit; --keep-going runs
// the whole budget.
func TestRunStopsOnRepeatedFailure(t *testing.T) {
	body := strings.Replace(moreStudy, `[sh, -c, 'echo "BOA_RESULT $0"', "{x}"]`, `[sh, missing.sh, "{x}"]`, 1)
	file, url := writeMore(t, strings.Replace(body, "sampler: gpbo", "sampler: random", 1))
	_, err := boa(t, "run", file, "--storage", url, "--trials", "20")
	if err == nil || !strings.Contains(err.Error(), "the first 3 trials all failed alike") || !strings.Contains(err.Error(), "missing.sh") {
		t.Fatalf("boa run with a missing script: %v; want it to stop after 3 trials, naming missing.sh", err)
	}
	if n := len(storedTrials(t, url, "more")); n != 3 {
		t.Errorf("%d trials run, want 3", n)
	}
	file, url = writeMore(t, strings.Replace(body, "sampler: gpbo", "sampler: random", 1))
	_, err = boa(t, "run", file, "--storage", url, "--trials", "5", "--keep-going")
	if n := len(storedTrials(t, url, "more")); n != 5 || err == nil || !strings.Contains(err.Error(), "all 5 trials failed") {
		t.Errorf("--keep-going: %d trials, %v; want 5 and the all-failed error", n, err)
	}
}

// TestWorkerUntilStopped: a worker of a study without a budget runs until
// Ctrl-C, which ends it cleanly (exit 0).
func TestWorkerUntilStopped(t *testing.T) {
	srv := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	createStudy(t, srv.url, "open", 0)
	w := startWorker(t, srv.url, "open", "--", "sh", "-c", `sleep 0.05; echo "BOA_RESULT $0"`, "{x}")
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) && len(studyTrials(t, srv.url, "open")) < 4 {
		time.Sleep(50 * time.Millisecond)
	}
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := w.wait(t, time.Minute); err != nil {
		t.Fatalf("boa worker of a study without a budget, stopped by Ctrl-C: %v, want exit 0\n%s", err, w.stderr)
	}
}

// TestFailFast: three trials failing alike stop a run, also when their
// reasons name each its own trial (a misread parameter); a different
// reason, a completed trial, or one before the run, never do.
func TestFailFast(t *testing.T) {
	failed := func(n int, reason string) study.Trial {
		return study.Trial{Number: n, State: study.Failed, Reason: reason + "\noutput of trial " + fmt.Sprint(n)}
	}
	misread := func(n int) study.Trial {
		return failed(n, fmt.Sprintf(`trial %d has no parameter "lrr" (parameters: lr)`, n))
	}
	for _, c := range []struct {
		name   string
		before []study.Trial
		trials []study.Trial
		stop   bool
	}{
		{"misread parameter", nil, []study.Trial{misread(0), misread(1), misread(2)}, true},
		{"same exit", nil, []study.Trial{failed(0, "exit code 2"), failed(1, "exit code 2"), failed(2, "exit code 2")}, true},
		{"two reasons", nil, []study.Trial{failed(0, "exit code 2"), failed(1, "exit code 3"), failed(2, "exit code 2")}, false},
		{"one completed", nil, []study.Trial{failed(0, "exit code 2"), {Number: 1, State: study.Complete}, failed(2, "exit code 2"), failed(3, "exit code 2")}, false},
		{"completed before", []study.Trial{{Number: 0, State: study.Complete}}, []study.Trial{failed(1, "x"), failed(2, "x"), failed(3, "x")}, false},
	} {
		stop := failFast(3, c.before)
		var err error
		for _, tr := range c.trials {
			if err = stop(tr); err != nil {
				break
			}
		}
		if (err != nil) != c.stop {
			t.Errorf("%s: %v, want a stop: %v", c.name, err, c.stop)
		}
	}
}
