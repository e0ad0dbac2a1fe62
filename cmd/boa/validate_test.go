package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/config/configtest"
)

// TestValidateSaysWhatRunSays: on every study file config's tests refuse, and on
// files that parse but fail boa run's later checks, boa validate fails
// with boa run's error, word for word, and neither creates the database.
func TestValidateSaysWhatRunSays(t *testing.T) {
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "boa.db")
	space := "space:\n  x: {type: float, low: 0, high: 1}\n"
	files := map[string]string{
		"no such program":   "name: a\ntrials: 3\n" + space + "objective: {command: [boa-no-such-program, \"{x}\"]}\n",
		"relative program":  "name: a\ntrials: 3\n" + space + "objective: {command: [./missing.sh]}\n",
		"not executable":    "name: a\ntrials: 3\n" + space + "objective: {command: [" + filepath.Join(dir, "plain.txt") + "]}\n",
		"no dir":            "name: a\ntrials: 3\n" + space + "objective: {command: [sh], dir: " + filepath.Join(dir, "nodir") + "}\n",
		"unknown function":  "name: a\ntrials: 3\n" + space + "objective: {function: nosuch}\n",
		"sampler vs. space": "name: a\ntrials: 3\nsampler: nasbowl\n" + space + "objective: {command: [sh]}\n",
	}
	if err := os.WriteFile(filepath.Join(dir, "plain.txt"), []byte("not a program"), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := configtest.BadFiles()
	for _, f := range bad {
		files["config: "+f.Name] = f.Doc
	}
	t.Logf("%d files, %d of them config's bad files", len(files), len(bad))
	for name, doc := range files {
		file := filepath.Join(dir, "study.yaml")
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		_, verr := boa(t, "validate", file)
		_, rerr := boa(t, "run", file, "--storage", url)
		switch {
		case verr == nil || rerr == nil:
			t.Errorf("%s: validate: %v; run: %v; want both to fail", name, verr, rerr)
		case verr.Error() != rerr.Error():
			t.Errorf("%s: validate and run differ:\nvalidate: %v\nrun:      %v", name, verr, rerr)
		}
		if _, err := os.Stat(filepath.Join(dir, "boa.db")); err == nil {
			t.Fatalf("%s: boa run created the database before failing", name)
		}
	}
}

// TestValidateExamples: every study file of examples/ is valid.
func TestValidateExamples(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../examples/*.yaml", "../../examples/*/*.yaml", "../../examples/*/study.json"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d study files in examples/: %v", len(files), files)
	}
	for _, f := range files {
		out, err := boa(t, "validate", f)
		if err != nil || !strings.HasPrefix(out, f+": ok\n") || !strings.Contains(out, "\nsampler    ") {
			t.Errorf("boa validate %s: %v\n%s", f, err, out)
		}
	}
}

func TestValidateReport(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	file, _ := writeStudy(t, `name: svm
sampler: auto
trials: 20
space:
  C: {type: float, low: 1.0e-3, high: 1.0e3, log: true}
  kernel: {type: categorical, choices: [rbf, poly, linear]}
  degree: {type: int, low: 2, high: 5, when: {kernel: [poly]}}
  width: {type: ordinal, values: [16, 32, 64]}
objective:
  command: [sh, -c, 'echo "BOA_RESULT $0"', "{C}"]
  logs: `+logs+"\n")
	out, err := boa(t, "validate", file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"study      svm, minimize, 20 trials, 1 worker, seed 0\n",
		"sampler    auto (",
		"objective  sh -c echo \"BOA_RESULT $0\" {C} (/",
		"space      4 parameters\n",
		"  C: float, a number in [0.001, 1000], log scale\n",
		"  kernel: categorical, one of rbf, poly, linear\n",
		"  degree: int, an integer in [2, 5], when kernel is poly\n",
		"  width: ordinal, one of 16, 32, 64\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("boa validate does not print %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(logs); err == nil {
		t.Error("boa validate created the logs directory")
	}

	// A study for boa serve (no objective, no budget) is valid, with notes.
	file, _ = writeStudy(t, "name: remote\nspace:\n  x: {type: float, low: 0, high: 1}\n")
	out, err = boa(t, "validate", file)
	if err != nil || !strings.Contains(out, "no budget (boa run runs it until stopped)") || !strings.Contains(out, "objective  none: a study for boa serve and boa worker") {
		t.Errorf("boa validate of a study without objective and budget: %v\n%s", err, out)
	}
	if _, err := boa(t, "validate"); err == nil || !strings.Contains(err.Error(), "validate takes one study file") {
		t.Errorf("boa validate without a file: %v", err)
	}
}
