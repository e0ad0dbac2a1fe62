package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputNoise: a study file whose float declares input_noise runs
// with boa run on SQLite, says that gpbo's UTGP models the noise, and
// resumes; input_noise where it means nothing is refused with its line.
func TestRunInputNoise(t *testing.T) {
	body := `name: knob
sampler: gpbo
trials: 8
seed: 1
space:
  x: {type: float, low: 0, high: 1, input_noise: 0.05}
  y: {type: float, low: 0, high: 1}
objective:
  command: [awk, -v, "x={x}", -v, "y={y}", 'BEGIN {{ print "BOA_RESULT", (x - 0.3)^2 + (y - 0.6)^2 }}']
  logs: LOGS
`
	file, url := writeStudy(t, strings.Replace(body, "LOGS", filepath.Join(t.TempDir(), "logs"), 1))
	var errOut bytes.Buffer
	cmd := rootCmd()
	cmd.SetArgs([]string{"run", file, "--storage", url, "--trials", "6"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&errOut)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("boa run: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "sampler gpbo, utgp for the input noise of x") {
		t.Errorf("the run's summary does not say the UTGP models x's noise:\n%s", errOut.String())
	}
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatal(err)
	}
	if n := len(completeParams(t, storedTrials(t, url, "knob"))); n != 8 {
		t.Errorf("%d trials after resuming to the file's 8", n)
	}
	for decl, want := range map[string]string{
		"{type: categorical, choices: [a, b], input_noise: 0.1}": "space.x (line 6): input_noise is not a field of a categorical parameter",
		"{type: float, low: 0, high: 1, input_noise: -0.05}":     "space.x (line 6): input_noise must be a finite standard deviation > 0, got -0.05",
	} {
		bad, burl := writeStudy(t, strings.Replace(body, "{type: float, low: 0, high: 1, input_noise: 0.05}", decl, 1))
		if _, err := boa(t, "run", bad, "--storage", burl); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("x: %s: %v, want an error with %q", decl, err, want)
		}
	}
}
