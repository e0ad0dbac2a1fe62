package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
)

// A tell the server refuses for a metric (a name over its 256 bytes) does
// not end the worker nor leave the trial RUNNING until its lease lapses:
// the result is told again without the metrics, as boa run drops a bad
// BOA_METRIC line and keeps the trial.
func TestE2EWorkerRefusedMetric(t *testing.T) {
	s := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	createStudy(t, s.url, "metric", 2)
	long := strings.Repeat("m", 300)
	w := startWorker(t, s.url, "metric", "--", "sh", "-c",
		fmt.Sprintf("echo BOA_METRIC %s 1; echo BOA_METRIC ok 2; echo BOA_RESULT {x}", long))
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	trials := studyTrials(t, s.url, "metric")
	if len(trials) != 2 {
		t.Fatalf("%d trials, want 2\n%s", len(trials), w.stderr)
	}
	for _, tr := range trials {
		if tr.State != "COMPLETE" || tr.Value == nil {
			t.Errorf("trial %d: %s %q, want COMPLETE with its value\n%s", tr.Number, tr.State, tr.Reason, w.stderr)
		}
	}
	if !strings.Contains(w.stderr.String(), "longer than 256 bytes") {
		t.Errorf("the worker does not say why the metrics were dropped:\n%s", w.stderr)
	}
}

// A value the study refuses (log transform, x ≤ 0) still fails the trial
// with the server's reason and keeps its metrics; a metric the server
// refuses as well is dropped rather than end the worker.
func TestE2EWorkerRefusedValueAndMetric(t *testing.T) {
	s := startServe(t, "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	body := `{"name":"logged","sampler":"random","seed":3,"trials":8,"transform":"log","space":{"x":{"type":"float","low":-1,"high":1}}}`
	if _, err := client.New(s.url, "").CreateStudy(context.Background(), []byte(body)); err != nil {
		t.Fatal(err)
	}
	// x > 0.5 also prints a metric the server refuses.
	cmd := fmt.Sprintf(`echo BOA_METRIC ok 2; if awk "BEGIN{{exit !({x} > 0.5)}}"; then echo BOA_METRIC %s 1; fi; echo BOA_RESULT {x}`,
		strings.Repeat("m", 300))
	w := startWorker(t, s.url, "logged", "--", "sh", "-c", cmd)
	if err := w.wait(t, 30*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	for _, tr := range studyTrials(t, s.url, "logged") {
		x, _ := tr.Params["x"].(json.Number).Float64()
		switch {
		case x <= 0 && (tr.State != "FAILED" || !strings.Contains(tr.Reason, "transform log needs values > 0") || tr.Metrics["ok"] != 2):
			t.Errorf("trial %d, x = %v: %s %q metrics %v; want FAILED for the transform with metric ok", tr.Number, x, tr.State, tr.Reason, tr.Metrics)
		case x > 0.5 && (tr.State != "COMPLETE" || len(tr.Metrics) != 0):
			t.Errorf("trial %d, x = %v: %s metrics %v; want COMPLETE without metrics", tr.Number, x, tr.State, tr.Metrics)
		case x > 0 && x <= 0.5 && (tr.State != "COMPLETE" || tr.Metrics["ok"] != 2):
			t.Errorf("trial %d, x = %v: %s metrics %v; want COMPLETE with metric ok", tr.Number, x, tr.State, tr.Metrics)
		}
	}
}
