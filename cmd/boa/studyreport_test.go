package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reportFiles runs boa report on a stored study and checks that every
// file it names decodes (PNGs) or is there (report.md); it returns
// report.md.
func reportFiles(t *testing.T, url, name string, want ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "report")
	out, err := boa(t, "report", name, "--out", dir, "--storage", url)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, filepath.Join(dir, "report.md")) {
		t.Errorf("output does not name report.md: %q", out)
	}
	for _, f := range append(want, "history.png", "importance.png", "edf.png", "contour.png", "timeline.png") {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil || img.Bounds().Dx() < 100 {
			t.Errorf("%s: not a drawn PNG: %v", f, err)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(md)
}

// The acceptance line: boa report on the quickstart study
// writes non-empty PNGs and a report.md that links them; it leaves the
// database file as it was.
func TestReportQuickstart(t *testing.T) {
	body, err := os.ReadFile("../../examples/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../../examples/quickstart/branin.sh")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(body), "trials: 30", "trials: 8", 1)
	y = strings.Replace(y, "quickstart/branin.sh", script, 1)
	y = strings.Replace(y, "timeout: 30s", "timeout: 30s\n  logs: "+filepath.Join(t.TempDir(), "logs"), 1)
	file, url := writeStudy(t, y)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	db := strings.TrimPrefix(url, "sqlite:")
	before, _ := os.ReadFile(db)
	md := reportFiles(t, url, "quickstart", "slice-x.png", "slice-y.png")
	for _, want := range []string{"# Study quickstart", "| COMPLETE | 8 |", "Best trial: **", "![history](history.png)",
		"![slice-x](slice-x.png)", "Not drawn: no trial reported intermediate values"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Errorf("boa report changed the database file")
	}
	// A study the storage does not hold, and a missing --out.
	if _, err := boa(t, "report", "quickstar", "--out", t.TempDir(), "--storage", url); err == nil || !strings.Contains(err.Error(), "did you mean quickstart?") {
		t.Errorf("unknown study: err = %v", err)
	}
	if _, err := boa(t, "report", "quickstart", "--storage", url); err == nil || !strings.Contains(err.Error(), "out") {
		t.Errorf("no --out: err = %v", err)
	}
}

// A study with PRUNED trials (the median pruner on learning curves) draws
// the intermediate values.
func TestReportPruned(t *testing.T) {
	file, url := writeStudy(t, `name: curves
sampler: random
trials: 10
seed: 1
pruner: {type: median, n_startup_trials: 3}
space:
  rate: {type: float, low: 0.05, high: 0.6}
  other: {type: float, low: 0, high: 1}
objective:
  command: [sh, `+curveScript(t, t.TempDir())+`, "{rate}"]
  timeout: 30s
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	md := reportFiles(t, url, "curves", "intermediate.png", "slice-rate.png")
	if !strings.Contains(md, "![intermediate](intermediate.png)") || strings.Contains(md, "| PRUNED | 0 |") {
		t.Errorf("report.md:\n%s", md)
	}
}

// A constrained study: the summary counts feasible and infeasible trials
// and names the best feasible one.
func TestReportConstrained(t *testing.T) {
	script := filepath.Join(t.TempDir(), "small.sh")
	if err := os.WriteFile(script, []byte(`echo "BOA_METRIC size $1"
echo "BOA_RESULT $(awk -v x=$1 -v y=$2 'BEGIN{print (x-0.8)^2+y}')"
`), 0o644); err != nil {
		t.Fatal(err)
	}
	file, url := writeStudy(t, `name: small
sampler: random
trials: 10
seed: 2
constraints:
  size: {max: 0.5}
space:
  x: {type: float, low: 0, high: 1}
  y: {type: float, low: 0, high: 1}
objective:
  command: [sh, `+script+`, "{x}", "{y}"]
  timeout: 30s
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	md := reportFiles(t, url, "small")
	for _, want := range []string{"Constraints size <= 0.5: ", "Best feasible trial: **"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
}
