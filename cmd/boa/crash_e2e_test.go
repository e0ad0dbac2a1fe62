package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// TestE2EKillThenResumeAtOnce: kill -9 of boa run while a trial runs,
// then one boa run --resume right away, with the default 30 s lease:
// the killed run's trial is provably gone (same host, no such process),
// so it is FAILED "stale: its process ... is gone" and re-run at once;
// the resume ends with the budget met, well within the lease.
func TestE2EKillThenResumeAtOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("processes are proven gone on Linux only")
	}
	bin := boaproc.Binary(t)
	dir := t.TempDir()
	const budget = 6
	file := filepath.Join(dir, "study.yaml")
	body := fmt.Sprintf("name: crash\ntrials: %d\nsampler: random\nspace:\n  x: {type: float, low: 0, high: 1}\n"+
		"objective:\n  command: [sh, -c, \"sleep 0.4; echo BOA_RESULT {x}\"]\n  logs: %s\n", budget, filepath.Join(dir, "logs"))
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "boa.db")
	stderr, err := os.Create(filepath.Join(dir, "first.err")) // a file: the orphaned trial command cannot hold a pipe open
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	first := exec.Command(bin, "run", file, "--storage", url)
	first.Env, first.Stderr = e2eEnv(), stderr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Process.Kill() })

	// Mid-study: one trial done and the next one RUNNING.
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(stderr.Name())
			t.Fatalf("no trial RUNNING after a COMPLETE one within 20 s\n%s", b)
		}
		st, err := study.Open(ctx, store, "crash")
		if err != nil {
			continue // not created yet
		}
		sum, err := st.Summary(ctx)
		if err == nil && sum.States[study.Complete] >= 1 && sum.States[study.Running] == 1 {
			break
		}
	}
	_ = first.Process.Kill() // SIGKILL: no clean-up, the trial stays RUNNING
	_ = first.Wait()

	start := time.Now()
	resume := exec.Command(bin, "run", file, "--storage", url, "--resume")
	resume.Env = e2eEnv()
	out, err := resume.CombinedOutput()
	took := time.Since(start)
	if err != nil {
		t.Fatalf("boa run --resume: %v\n%s", err, out)
	}
	t.Logf("the resume took %v", took)
	if took >= study.DefaultLease {
		t.Errorf("the resume took %v: it waited for the lease (%v)", took, study.DefaultLease)
	}
	st, err := study.Open(ctx, store, "crash")
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	complete, reran := 0, map[int]bool{}
	for _, tr := range trials {
		if tr.RetryOf >= 0 && tr.State == study.Complete {
			reran[tr.RetryOf] = true
		}
	}
	lost := 0
	for _, tr := range trials {
		switch {
		case tr.State == study.Complete:
			complete++
		case tr.State == study.Failed && strings.HasPrefix(tr.Reason, "stale: its process pid ") && strings.HasSuffix(tr.Reason, " is gone") && reran[tr.Number]:
			lost++
		default:
			t.Errorf("trial %d: %v %q (retry of %d), want COMPLETE, or FAILED stale and re-run", tr.Number, tr.State, tr.Reason, tr.RetryOf)
		}
	}
	if complete != budget || lost != 1 {
		t.Errorf("%d COMPLETE and %d lost and re-run, want %d and 1\n%s", complete, lost, budget, out)
	}
	if strings.Contains(string(out), "still RUNNING") {
		t.Errorf("the resume left trials RUNNING:\n%s", out)
	}
}
