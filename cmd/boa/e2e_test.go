package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage/storagetest"
)

// Issue 3, "Concurrency test": 8 worker processes × 50 trials of a trivial
// command against one SQLite file: every trial COMPLETE exactly once, no
// configuration evaluated twice, no "database is locked"/busy errors.
func TestE2EConcurrencySQLite(t *testing.T) {
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	concurrency(t, []served{s}, "conc-sqlite")
}

// The same through two `boa serve` processes sharing one PostgreSQL
// database, the workers split between them.
func TestE2EConcurrencyPostgres(t *testing.T) {
	pg := storagetest.PostgresURL(t, true)
	a := startServe(t, pg)
	b := startServe(t, pg)
	concurrency(t, []served{a, b}, fmt.Sprintf("conc-pg-%d", time.Now().UnixNano()))
}

func concurrency(t *testing.T, servers []served, study string) {
	const workers, each = 8, 50
	boaproc.Binary(t)
	createStudy(t, servers[0].url, study, workers*each)
	start := time.Now()
	procs := make([]*workerProc, workers)
	for i := range procs {
		procs[i] = startWorker(t, servers[i%len(servers)].url, study, "--trials", strconv.Itoa(each),
			"--", "sh", "-c", "echo BOA_METRIC y {y}; echo BOA_RESULT {x}")
	}
	for i, w := range procs {
		if err := w.wait(t, 50*time.Second); err != nil {
			t.Errorf("worker %d: %v\n%s", i, err, w.stderr)
		}
		checkNoLockErrors(t, fmt.Sprintf("worker %d", i), w.stderr.String())
	}
	for i, s := range servers {
		checkNoLockErrors(t, fmt.Sprintf("server %d", i), s.stderr.String())
	}
	t.Logf("%d trials by %d workers through %d server(s) in %v", workers*each, workers, len(servers), time.Since(start).Round(time.Millisecond))

	trials := studyTrials(t, servers[len(servers)-1].url, study)
	if len(trials) != workers*each {
		t.Fatalf("%d trials stored, want %d", len(trials), workers*each)
	}
	seen := map[string]int{}
	perWorker := map[string]int{}
	for i, tr := range trials {
		if tr.Number != i || tr.State != "COMPLETE" || tr.Value == nil || tr.RetryOf != nil {
			t.Errorf("trial %d: number %d, state %s, value %v, retry_of %v", i, tr.Number, tr.State, tr.Value, tr.RetryOf)
			continue
		}
		key := paramKey(tr.Params)
		if j, dup := seen[key]; dup {
			t.Errorf("trials %d and %d have the same configuration %s", j, i, key)
		}
		seen[key] = i
		if x, _ := strconv.ParseFloat(fmt.Sprint(tr.Params["x"]), 64); *tr.Value != x || tr.Metrics["y"] == 0 {
			t.Errorf("trial %d: value %v and metrics %v do not match its params %v", i, *tr.Value, tr.Metrics, tr.Params)
		}
		perWorker[tr.Worker]++
	}
	if len(perWorker) != workers {
		t.Errorf("trials ran on %d workers, want %d: %v", len(perWorker), workers, perWorker)
	}
}

func checkNoLockErrors(t *testing.T, who, log string) {
	t.Helper()
	low := strings.ToLower(log)
	if strings.Contains(low, "locked") || strings.Contains(low, "busy") {
		t.Errorf("%s reported a lock error:\n%s", who, log)
	}
}

// Issue 3, "Crash test": a worker killed with SIGKILL in the middle of a
// trial. Within the lease the trial is FAILED (stale), its configuration is
// run again once (retry_of, same params), and the study completes with the
// requested count.
func TestE2ECrash(t *testing.T) {
	const budget = 6
	lease := 2 * time.Second
	dir := t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"), "--lease", lease.String())
	createStudy(t, s.url, "crash", budget)

	// Only the first trial to run is slow: it records its process group
	// (sh leads the group the runner gives it) and sleeps.
	mark := filepath.Join(dir, "mark")
	script := fmt.Sprintf(`if mkdir %[1]s 2>/dev/null; then echo $$ > %[1]s/pid.tmp; mv %[1]s/pid.tmp %[1]s/pid; sleep 30; fi; echo BOA_RESULT {x}`, mark)
	cmd := []string{"--heartbeat", "300ms", "--", "sh", "-c", script}

	first := startWorker(t, s.url, "crash", cmd...)
	var pgid int
	for deadline := time.Now().Add(20 * time.Second); pgid == 0; {
		if b, err := os.ReadFile(filepath.Join(mark, "pid")); err == nil {
			pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first trial did not start\n%s", first.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(700 * time.Millisecond) // a couple of heartbeats
	_ = first.cmd.Process.Signal(syscall.SIGKILL)
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	killed := time.Now()
	if err := first.wait(t, 10*time.Second); err == nil {
		t.Fatal("the killed worker exited 0")
	}

	second := startWorker(t, s.url, "crash", cmd...)
	if err := second.wait(t, 30*time.Second); err != nil {
		t.Fatalf("second worker: %v\n%s", err, second.stderr)
	}

	trials := studyTrials(t, s.url, "crash")
	if len(trials) != budget+1 {
		t.Fatalf("%d trials stored, want %d (the budget and one re-run)\n%s", len(trials), budget+1, second.stderr)
	}
	lost := trials[0]
	if lost.State != "FAILED" || !strings.HasPrefix(lost.Reason, "stale") {
		t.Errorf("killed trial: state %s reason %q, want FAILED stale...", lost.State, lost.Reason)
	}
	// The lease, plus the worker's polling interval and slack for a loaded machine.
	if lost.Finished == nil || lost.Finished.Sub(killed) > lease+2*time.Second {
		t.Errorf("killed trial failed at %v, %v after the kill; want within the lease (%v)", lost.Finished, lost.Finished.Sub(killed), lease)
	}
	retries := 0
	for _, tr := range trials[1:] {
		if tr.State != "COMPLETE" {
			t.Errorf("trial %d: %s %s", tr.Number, tr.State, tr.Reason)
		}
		if tr.RetryOf != nil {
			retries++
			if *tr.RetryOf != 0 || paramKey(tr.Params) != paramKey(lost.Params) {
				t.Errorf("re-run %d: retry_of %d params %v, want 0 and %v", tr.Number, *tr.RetryOf, tr.Params, lost.Params)
			}
		}
	}
	if retries != 1 {
		t.Errorf("%d re-runs of the killed trial, want 1", retries)
	}
}
