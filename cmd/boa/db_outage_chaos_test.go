package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/internal/boaproc"
	"github.com/boaopt/boa/internal/tcpproxy"
	"github.com/boaopt/boa/storage/storagetest"
)

// A worker rides out a PostgreSQL restart behind `boa serve`: the trial
// that ends while the database is down is told once it is back. The
// server answered 500 while its database was unreachable, which boa
// worker does not retry, so a 3 s restart of PostgreSQL ended every
// worker of the study and lost the results they were telling.
func TestE2EWorkerRidesOutDatabaseRestart(t *testing.T) {
	u, err := url.Parse(storagetest.PostgresURL(t, true))
	if err != nil {
		t.Fatal(err)
	}
	boaproc.Binary(t)
	p := tcpproxy.New(t, u.Host)
	u.Host = p.Addr()
	s := startServe(t, u.String(), "--lease", "10s")
	createStudy(t, s.url, "pgrestart", 3)

	dir := t.TempDir()
	started, finish := filepath.Join(dir, "started"), filepath.Join(dir, "finish")
	// The first trial waits for the test; the others end at once.
	script := fmt.Sprintf(`if [ ! -e %[1]s ]; then touch %[1]s; while [ ! -e %[2]s ]; do sleep 0.02; done; fi; echo BOA_RESULT {x}`, started, finish)
	w := startWorker(t, s.url, "pgrestart", "--heartbeat", "200ms", "--", "sh", "-c", script)
	waitFile(t, started, w)

	addr := p.Addr()
	p.Down()
	if err := os.WriteFile(finish, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The tell fails while the database is down.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(w.stderr.String(), "/tell"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the worker did not try to tell its result\n%s", w.stderr)
		}
	}
	time.Sleep(time.Second)
	p.Up(addr)

	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	trials := studyTrials(t, s.url, "pgrestart")
	if len(trials) != 3 {
		t.Fatalf("%d trials, want 3\n%s", len(trials), w.stderr)
	}
	for _, tr := range trials {
		if tr.State != "COMPLETE" {
			t.Errorf("trial %d: %s %q\n%s", tr.Number, tr.State, tr.Reason, w.stderr)
		}
	}
	if !strings.Contains(w.stderr.String(), "503") {
		t.Errorf("the worker's retries do not show the server's 503:\n%s", w.stderr)
	}
}
