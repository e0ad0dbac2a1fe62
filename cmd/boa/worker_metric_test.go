package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestE2EWorkerLongMetricName: a BOA_METRIC line whose name the HTTP API
// would refuse (over 256 bytes) is dropped with a warning by the runner,
// as boa run drops it, and the trial completes; the server's 400 ended
// the worker and left the trial RUNNING until its lease lapsed.
func TestE2EWorkerLongMetricName(t *testing.T) {
	s := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	createStudy(t, s.url, "metric", 2)
	w := startWorker(t, s.url, "metric", "--", "sh", "-c",
		fmt.Sprintf("echo BOA_METRIC %s 1; echo BOA_METRIC ok 2; echo BOA_RESULT {x}", strings.Repeat("m", 300)))
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	trials := studyTrials(t, s.url, "metric")
	if len(trials) != 2 {
		t.Fatalf("%d trials, want 2\n%s", len(trials), w.stderr)
	}
	for _, tr := range trials {
		if tr.State != "COMPLETE" || tr.Value == nil || len(tr.Metrics) != 1 || tr.Metrics["ok"] != 2 {
			t.Errorf("trial %d: %s %q metrics %v, want COMPLETE with metric ok only\n%s", tr.Number, tr.State, tr.Reason, tr.Metrics, w.stderr)
		}
	}
	if !strings.Contains(w.stderr.String(), "a metric name has at most 256 bytes") {
		t.Errorf("the worker does not warn about the dropped line:\n%s", w.stderr)
	}
}
