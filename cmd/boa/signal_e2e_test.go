package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// TestE2ESignalToTheWholeGroup: a SIGTERM sent to boa run's whole control
// group (systemd's default KillMode, Slurm's scancel) may reach a trial's
// command before boa. The trial is then interrupted and re-queued, as with
// a SIGTERM to boa alone, not FAILED as killed by a signal.
func TestE2ESignalToTheWholeGroup(t *testing.T) {
	bin := boaproc.Binary(t)
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("setsid (util-linux) is not installed")
	}
	dir := t.TempDir()
	// The first trial sends SIGTERM to itself, then 0.2 s later to boa
	// (its parent) from a process in a session of its own, which boa's
	// clean-up of the trial's group does not stop, and without its output
	// pipes, which boa would wait for.
	mark := filepath.Join(dir, "mark")
	script := fmt.Sprintf(`if mkdir %s 2>/dev/null; then p=$PPID; setsid sh -c "sleep 0.3; kill -TERM $p" >/dev/null 2>&1 </dev/null & sleep 0.1; kill -TERM $$; fi; echo BOA_RESULT {x}`, mark)
	file := filepath.Join(dir, "study.yaml")
	body := fmt.Sprintf("name: sig\ntrials: 3\nsampler: random\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective:\n  command: [sh, -c, %q]\n  logs: %s\n", script, filepath.Join(dir, "logs"))
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "sqlite:" + filepath.Join(dir, "boa.db")
	cmd := exec.Command(bin, "run", file, "--storage", url)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !strings.Contains(string(out), "interrupted") {
		t.Fatalf("boa run: %v, want an interrupted run\n%s", err, out)
	}
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := study.Open(ctx, store, "sig")
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 2 || trials[0].State != study.Failed || !strings.HasPrefix(trials[0].Reason, "interrupted") ||
		trials[1].State != study.Waiting || trials[1].RetryOf != 0 {
		t.Fatalf("trials %+v; want trial 0 FAILED interrupted and re-queued as trial 1\n%s", trials, out)
	}
}
