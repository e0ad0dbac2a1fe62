package storage_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// The multi-process tests re-execute this test binary as 8 worker processes
// (TestHelperProcess) that share one database, the way 8 `boa` workers or
// 2 `boa serve` replicas do.
const (
	childURLEnv = "BOA_STORAGE_TEST_CHILD_URL"
	childIDEnv  = "BOA_STORAGE_TEST_CHILD_ID"
	children    = 8
	perChild    = 50
)

// TestHelperProcess is one worker process; it does nothing in a normal run.
// Each worker adds perChild trials under the study's suggestion lease and
// claims, heartbeats, reports and finishes whatever trial is waiting, then
// drains the queue.
func TestHelperProcess(t *testing.T) {
	url := os.Getenv(childURLEnv)
	if url == "" {
		return
	}
	id := os.Getenv(childIDEnv)
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("child %s: open: %v", id, err)
	}
	defer s.Close()
	st, err := s.CreateStudy(t.Context(), storage.Study{Name: "multi", Direction: "minimize", Sampler: "random"})
	if errors.Is(err, storage.ErrExists) {
		st, err = s.GetStudy(t.Context(), "multi")
	}
	if err != nil {
		t.Fatalf("child %s: study: %v", id, err)
	}
	work := func() bool {
		tr, ok, err := s.ClaimTrial(t.Context(), st.ID, "child-"+id)
		if err != nil {
			t.Fatalf("child %s: claim: %v", id, err)
		}
		if !ok {
			return false
		}
		v := float64(len(tr.Params)) + float64(tr.Number)
		for _, err := range []error{
			s.Heartbeat(t.Context(), tr.ID),
			s.Report(t.Context(), tr.ID, 1, v),
			s.FinishTrial(t.Context(), tr.ID, storage.Finish{State: storage.Complete, Value: &v}),
		} {
			if err != nil {
				t.Fatalf("child %s: trial %d: %v", id, tr.Number, err)
			}
		}
		return true
	}
	for j := range perChild {
		lease, err := s.Lock(t.Context(), st.ID, "child-"+id, 30*time.Second)
		if err != nil {
			t.Fatalf("child %s: lock: %v", id, err)
		}
		_, err = s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, RetryOf: -1,
			Params: fmt.Appendf(nil, `{"child":%s,"j":%d}`, id, j)})
		if err != nil {
			t.Fatalf("child %s: add: %v", id, err)
		}
		if err := lease.Unlock(); err != nil {
			t.Fatalf("child %s: unlock: %v", id, err)
		}
		if j%10 == 0 {
			if _, err := s.Reap(t.Context(), st.ID, time.Now().Add(-time.Hour)); err != nil {
				t.Fatalf("child %s: reap: %v", id, err)
			}
		}
		work()
	}
	for work() {
	}
}

// runChildren runs the worker processes against url and checks the study
// they leave behind: every trial COMPLETE exactly once, no error anywhere.
func runChildren(t *testing.T, url string) {
	outputs := make([][]byte, children)
	errs := make([]error, children)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range children {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), childURLEnv+"="+url, fmt.Sprintf("%s=%d", childIDEnv, i))
		wg.Go(func() { outputs[i], errs[i] = cmd.CombinedOutput() })
	}
	wg.Wait()
	t.Logf("%d processes × %d trials: %v", children, perChild, time.Since(start))
	for i := range children {
		out := string(outputs[i])
		if errs[i] != nil {
			t.Errorf("child %d: %v\n%s", i, errs[i], out)
		}
		low := strings.ToLower(out)
		if strings.Contains(low, "locked") || strings.Contains(low, "busy") {
			t.Errorf("child %d reported a locking error:\n%s", i, out)
		}
	}
	if t.Failed() {
		return
	}
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.GetStudy(t.Context(), "multi")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Trials(t.Context(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != children*perChild {
		t.Fatalf("%d trials, want %d", len(ts), children*perChild)
	}
	params := map[string]bool{}
	for i, tr := range ts {
		want := float64(len(tr.Params)) + float64(tr.Number)
		if tr.Number != i || tr.State != storage.Complete || tr.Value == nil || *tr.Value != want ||
			len(tr.Reports) != 1 || !strings.HasPrefix(tr.Worker, "child-") {
			t.Errorf("trial %d = %+v, want COMPLETE once with value %v", i, tr, want)
		}
		if params[string(tr.Params)] {
			t.Errorf("params %s added twice", tr.Params)
		}
		params[string(tr.Params)] = true
	}
}

func TestMultiProcessSQLite(t *testing.T) {
	// The children race to create and migrate the file too.
	runChildren(t, "sqlite:"+filepath.Join(t.TempDir(), "shared.db"))
}

func TestMultiProcessPostgres(t *testing.T) {
	runChildren(t, storagetest.PostgresURL(t, false))
}
