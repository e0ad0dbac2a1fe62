package study

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/storage"
)

// heldBy returns a study and trial 0, RUNNING in it as worker owner (a
// second Study value of the same stored study, named owner).
func heldBy(t *testing.T, owner string) (*Study, Trial) {
	t.Helper()
	old := deadScanEvery
	deadScanEvery = 0
	t.Cleanup(func() { deadScanEvery = old })
	store := storage.NewMemory()
	st, err := Create(bg, store, Spec{Name: "s", Space: testSpace(t), Sampler: "random", Budget: 3})
	if err != nil {
		t.Fatal(err)
	}
	other, err := Open(bg, store, "s")
	if err != nil {
		t.Fatal(err)
	}
	other.SetWorker(owner)
	held, err := other.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	return st, held
}

func linuxOnly(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("processes are proven gone on Linux only")
	}
}

// A trial whose process exited is re-run by the next ask, lease or not.
func TestAskReapsDeadProcessAtOnce(t *testing.T) {
	linuxOnly(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	owner, ok := proc.Identify(cmd.Process.Pid)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if !ok {
		t.Fatal("no identity for a running child")
	}
	st, held := heldBy(t, owner)
	got, err := st.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	if got.RetryOf != held.Number {
		t.Errorf("ask gave trial %d (retry of %d), want the re-run of trial %d", got.Number, got.RetryOf, held.Number)
	}
	ts := trials(t, st)
	want := "stale: its process pid " + strconv.Itoa(cmd.Process.Pid) + " on host "
	if ts[0].State != Failed || !strings.HasPrefix(ts[0].Reason, want) || !strings.HasSuffix(ts[0].Reason, " is gone") {
		t.Errorf("trial 0: %v %q, want FAILED %q…", ts[0].State, ts[0].Reason, want)
	}
}

// A pid reused by a later process (its start time differs) does not keep
// the first one's trials alive.
func TestAskReapsReusedPID(t *testing.T) {
	linuxOnly(t)
	id, _ := proc.Parse(proc.Self())
	id.Start--
	st, held := heldBy(t, id.String())
	if got, err := st.Ask(bg); err != nil || got.RetryOf != held.Number {
		t.Errorf("ask = trial %d (retry of %d), %v; want the re-run of trial %d", got.Number, got.RetryOf, err, held.Number)
	}
}

// A live process of this host (a second boa run --resume, --workers in
// another process), this process itself, an older "host:pid" name and a
// process of another host keep their trials until the lease.
func TestAskKeepsLiveAndUnprovable(t *testing.T) {
	linuxOnly(t)
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	child, ok := proc.Identify(cmd.Process.Pid)
	if !ok {
		t.Fatal("no identity for a running child")
	}
	host, _ := os.Hostname()
	elsewhere, _ := proc.Parse(proc.Self())
	elsewhere.Host += "-elsewhere"
	elsewhere.PID++
	for name, owner := range map[string]string{
		"a live process": child,
		"this process":   proc.Self(),
		"old host:pid":   host + ":" + strconv.Itoa(1<<22+1), // past pid_max: no such process, but not provable
		"another host":   elsewhere.String(),
	} {
		st, held := heldBy(t, owner)
		got, err := st.Ask(bg)
		if err != nil {
			t.Fatal(err)
		}
		if got.RetryOf >= 0 || trials(t, st)[held.Number].State != Running {
			t.Errorf("%s: trial %d was reaped before its lease", name, held.Number)
		}
		if h, err := st.Running(bg); err != nil || len(h.Trials) != 2 || h.Trials[0] != held.Number || h.Workers[0] != owner { // held, and the one asked
			t.Errorf("%s: Running = %+v, %v", name, h, err)
		}
	}
}

// Across hosts the lease still rules: another host's trial is re-run once
// its heartbeats have stopped for the lease, not before.
func TestAskReapsAnotherHostAfterLease(t *testing.T) {
	elsewhere := "elsewhere-host:4242:1.0a0b0c0d.1e2f3a4b.4026531836"
	st, held := heldBy(t, elsewhere)
	st.SetLease(time.Hour)
	if got, err := st.Ask(bg); err != nil || got.RetryOf >= 0 {
		t.Fatalf("before the lease: ask = %+v, %v", got, err)
	}
	h, err := st.Running(bg)
	if err != nil || len(h.Trials) != 2 || h.Workers[0] != elsewhere || time.Until(h.Until) < 59*time.Minute {
		t.Errorf("Running = %+v, %v; want trial %d of %s until in an hour", h, err, held.Number, elsewhere)
	}
	st.SetLease(20 * time.Millisecond)
	time.Sleep(50 * time.Millisecond)
	got, err := st.Ask(bg)
	if err != nil || got.RetryOf != held.Number {
		t.Fatalf("after the lease: ask = trial %d (retry of %d), %v", got.Number, got.RetryOf, err)
	}
	if r := trials(t, st)[held.Number].Reason; !strings.HasPrefix(r, "stale: no heartbeat since ") {
		t.Errorf("reason %q", r)
	}
}
