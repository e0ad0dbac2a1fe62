package storage_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

const changeChildEnv = "BOA_STORAGE_TEST_CHANGE_URL"

// TestHelperChangeProcess is the other process of testChangesAcrossProcesses:
// it claims and finishes the study's waiting trial, fails another with a
// re-queue and adds one. It does nothing in a normal run.
func TestHelperChangeProcess(t *testing.T) {
	url := os.Getenv(changeChildEnv)
	if url == "" {
		return
	}
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.GetStudy(t.Context(), "changes")
	if err != nil {
		t.Fatal(err)
	}
	tr, ok, err := s.ClaimTrial(t.Context(), st.ID, "child")
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	v := 0.25
	if err := s.FinishTrial(t.Context(), tr.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
		t.Fatal(err)
	}
	ts, err := s.TrialsWithoutReports(t.Context(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishTrial(t.Context(), ts[1].ID, storage.Finish{State: storage.Failed, Reason: "killed", Requeue: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1,
		Params: []byte(`{"x":0.75}`), X: []float64{0.75}}); err != nil {
		t.Fatal(err)
	}
}

// testChangesAcrossProcesses reads a study's changes, lets another process
// change its trials, and reads again: the merged trials must be what a
// full read gives.
func testChangesAcrossProcesses(t *testing.T, url string) {
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st := storagetest.NewStudy(t, s, "changes")
	for i, state := range []storage.State{storage.Waiting, storage.Running} {
		if _, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: state, RetryOf: -1,
			Params: []byte(`{"x":0.5}`), X: []float64{float64(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	c := &storagetest.Changes{StudyID: st.ID}
	c.Read(t, s)
	c.Check(t, s, "the first read")
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestHelperChangeProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), changeChildEnv+"="+url)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the other process: %v\n%s", err, out)
	}
	// Claim, finish, fail with its retry, add: four trials changed.
	if n := c.Read(t, s); n != 4 {
		t.Errorf("%d trials changed by the other process, want 4", n)
	}
	c.Check(t, s, "the other process's changes")
	if n := c.Read(t, s); n != 0 {
		t.Errorf("%d trials changed since, want 0", n)
	}
}

func TestChangesAcrossProcessesSQLite(t *testing.T) {
	testChangesAcrossProcesses(t, "sqlite:"+filepath.Join(t.TempDir(), "shared.db"))
}

func TestChangesAcrossProcessesPostgres(t *testing.T) {
	testChangesAcrossProcesses(t, storagetest.PostgresURL(t, false))
}
