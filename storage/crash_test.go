package storage_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

const crashURLEnv = "BOA_STORAGE_TEST_CRASH_URL"

// TestHelperCrash claims a trial, says so, and hangs until it is killed.
func TestHelperCrash(t *testing.T) {
	url := os.Getenv(crashURLEnv)
	if url == "" {
		return
	}
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.GetStudy(t.Context(), "crash")
	if err != nil {
		t.Fatal(err)
	}
	tr, ok, err := s.ClaimTrial(t.Context(), st.ID, "doomed")
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	if err := s.Report(t.Context(), tr.ID, 1, 0.5); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("CLAIMED\n")
	time.Sleep(time.Minute)
}

// testCrash kills -9 a worker in the middle of a trial and checks that the
// trial is reaped as stale and re-run once, and that the database is intact.
func testCrash(t *testing.T, url string) {
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := storagetest.NewStudy(t, s, "crash")
	orig, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, RetryOf: -1, Params: []byte(`{"x":0.25}`), X: []float64{0.25}})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperCrash$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashURLEnv+"="+url)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.Contains(line, "CLAIMED") {
		cmd.Process.Kill()
		t.Fatalf("worker did not claim: %q %v", line, err)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no clean-up runs
		t.Fatal(err)
	}
	var exit *exec.ExitError
	if err := cmd.Wait(); !errors.As(err, &exit) {
		t.Fatalf("worker exit: %v", err)
	}
	// The lease time has "passed": everything heartbeated before now is stale.
	time.Sleep(2 * time.Millisecond)
	failed, err := s.Reap(t.Context(), st.ID, time.Now())
	if err != nil || len(failed) != 1 || failed[0].ID != orig.ID || failed[0].Worker != "doomed" {
		t.Fatalf("Reap after kill -9 = %+v, %v", failed, err)
	}
	retry, ok, err := s.ClaimTrial(t.Context(), st.ID, "survivor")
	if err != nil || !ok || retry.RetryOf != orig.Number || string(retry.Params) != `{"x":0.25}` {
		t.Fatalf("re-run = %+v, %v, %v", retry, ok, err)
	}
	v := 1.0
	if err := s.FinishTrial(t.Context(), retry.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
		t.Fatal(err)
	}
	ts, err := s.Trials(t.Context(), st.ID)
	if err != nil || len(ts) != 2 || ts[0].State != storage.Failed || len(ts[0].Reports) != 1 || ts[1].State != storage.Complete {
		t.Errorf("study after the crash = %+v, %v", ts, err)
	}
}

func TestCrashSQLite(t *testing.T) {
	testCrash(t, "sqlite:"+filepath.Join(t.TempDir(), "crash.db"))
}

func TestCrashPostgres(t *testing.T) {
	testCrash(t, storagetest.PostgresURL(t, false))
}
