package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/export"
)

// TestRunFidelity: a study with a fidelity passes its maximum to the
// command as {epochs}; the command reports after each epoch and the
// pruner, whose resources come from the fidelity, stops the trials that
// fall behind.
func TestRunFidelity(t *testing.T) {
	body := `name: mf
sampler: random
trials: 12
seed: 2
fidelity: {name: epochs, min: 1, max: 9}
pruner: successive_halving
space:
  x: {type: float, low: 0, high: 1}
objective:
  command: [awk, 'BEGIN {{ for (e = 1; e <= ARGV[1]; e++) print "BOA_REPORT " e " " ARGV[2] + 1 / e; print "BOA_RESULT " ARGV[2] + 1 / ARGV[1] }}', "{epochs}", "{x}"]
  timeout: 30s
  logs: LOGS
`
	file, url := writeStudy(t, strings.Replace(body, "LOGS", filepath.Join(t.TempDir(), "logs"), 1))
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "export", "mf", "--storage", url, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var trials []export.Trial
	if err := json.Unmarshal([]byte(out), &trials); err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, tr := range trials {
		states[tr.State]++
		last := tr.Reports[len(tr.Reports)-1].Step
		switch {
		case tr.State == "COMPLETE" && (last != 9 || len(tr.Reports) != 9):
			t.Errorf("trial %d COMPLETE with reports up to %d, want the fidelity's max, 9", tr.Number, last)
		case last > 9:
			t.Errorf("trial %d reported step %d, past the fidelity's max, 9", tr.Number, last)
		}
	}
	if states["COMPLETE"] == 0 || states["PRUNED"] == 0 {
		t.Errorf("states %v: want complete and pruned trials", states)
	}
}
