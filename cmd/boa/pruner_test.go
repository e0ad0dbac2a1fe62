package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/export"
)

// curveScript writes a training stand-in to a file and returns its path:
// `sh PATH RATE` runs 8 epochs of loss (1 − RATE)^epoch, 0.1 s each, and
// appends each epoch it starts to the file epochs/<trial number>, so that
// a test can tell how far a stopped command got.
func curveScript(t *testing.T, epochs string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "train.sh")
	script := fmt.Sprintf(`for e in 1 2 3 4 5 6 7 8; do
  echo $e >> %s/$BOA_TRIAL_NUMBER
  echo "BOA_REPORT $e $(awk -v r=$1 -v e=$e 'BEGIN{print (1-r)^e}')"
  sleep 0.1
done
echo "BOA_RESULT $(awk -v r=$1 'BEGIN{print (1-r)^8}')"
`, epochs)
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkPruned checks trials told by a run with the median pruner: some
// were pruned, each PRUNED trial keeps its last report as its value and
// its command was stopped before its 8 epochs, every COMPLETE one ran
// all 8.
func checkPruned(t *testing.T, trials []export.Trial, epochs string, log string) {
	t.Helper()
	var pruned int
	for _, tr := range trials {
		ran, _ := os.ReadFile(filepath.Join(epochs, fmt.Sprint(tr.Number)))
		started := strings.Count(string(ran), "\n")
		switch tr.State {
		case "PRUNED":
			pruned++
			last := tr.Reports[len(tr.Reports)-1]
			if tr.Value == nil || *tr.Value != last.Value || len(tr.Reports) >= 8 || started >= 8 {
				t.Errorf("pruned trial %d: value %v, %d reports (last %v), %d epochs started; want the last report's value and fewer than 8", tr.Number, tr.Value, len(tr.Reports), last, started)
			}
		case "COMPLETE":
			if len(tr.Reports) != 8 || started != 8 {
				t.Errorf("complete trial %d: %d reports, %d epochs started; want 8", tr.Number, len(tr.Reports), started)
			}
		default:
			t.Errorf("trial %d is %s (%s)", tr.Number, tr.State, tr.Reason)
		}
	}
	if pruned == 0 || pruned == len(trials) {
		t.Errorf("%d of %d trials pruned; want some, not all\n%s", pruned, len(trials), log)
	}
}

// boa run with a pruner in the study file stops the command trials whose
// curves fall behind and records them PRUNED (docs/pruning.md).
func TestRunStudyFilePrunes(t *testing.T) {
	epochs := t.TempDir()
	file, url := writeStudy(t, `name: curves
sampler: random
trials: 12
seed: 1
pruner: {type: median, n_startup_trials: 3}
space:
  rate: {type: float, low: 0.05, high: 0.6}
objective:
  command: [sh, `+curveScript(t, epochs)+`, "{rate}"]
  timeout: 30s
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "export", "curves", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	if len(trials) != 12 {
		t.Fatalf("%d trials, want 12", len(trials))
	}
	checkPruned(t, trials, epochs, out)

	// The pruner is stored with the study: another in the file is refused on resume.
	other := strings.Replace(string(must(os.ReadFile(file))), "n_startup_trials: 3", "n_startup_trials: 4", 1)
	if err := os.WriteFile(file, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err == nil || !strings.Contains(err.Error(), "pruner") {
		t.Errorf("resume with another pruner: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// boa worker stops a command trial when the server's report answer says
// prune, and tells it PRUNED with its last value.
func TestE2EWorkerPrunes(t *testing.T) {
	dir, epochs := t.TempDir(), t.TempDir()
	s := startServe(t, "sqlite:"+filepath.Join(dir, "boa.db"))
	body := `{"name":"curves","sampler":"random","seed":1,"trials":12,"pruner":{"type":"median","n_startup_trials":3},
		"space":{"rate":{"type":"float","low":0.05,"high":0.6}}}`
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := client.New(s.url, "").CreateStudy(ctx, []byte(body)); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, s.url, "curves", "--", "sh", curveScript(t, epochs), "{rate}")
	if err := w.wait(t, 60*time.Second); err != nil {
		t.Fatalf("worker: %v\n%s", err, w.stderr)
	}
	trials := studyTrials(t, s.url, "curves")
	raw, _ := json.Marshal(trials)
	var got []export.Trial
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 12 {
		t.Fatalf("%d trials, want 12", len(got))
	}
	checkPruned(t, got, epochs, w.stderr.String())
	if !strings.Contains(w.stderr.String(), "PRUNED") {
		t.Errorf("the worker's log says nothing of pruned trials:\n%s", w.stderr)
	}
}
