package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/internal/boaproc"
)

// TestBenchBatch: --batch runs boa's samplers in synchronous batches and
// skips the peers, which have none.
func TestBenchBatch(t *testing.T) {
	out, err := boa(t, "bench", "--problems", "branin", "--samplers", "random,gpbo,goptuna-tpe",
		"--seeds", "1", "--budget", "10", "--batch", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d runs, want 2 (goptuna-tpe skipped): %s", len(rep.Results), out)
	}
	for _, r := range rep.Results {
		if r.Batch != 3 || len(r.Best) != 10 || len(r.SuggestSeconds) != 4 {
			t.Errorf("%s: batch %d, %d evaluations, %d asks; want 3, 10, 4", r.Sampler, r.Batch, len(r.Best), len(r.SuggestSeconds))
		}
	}
}

// TestBenchStudyFile: a study file with a built-in objective is a bench
// problem; one with a deploy block is constrained, its deploy metrics
// known to boa's studies (every proposal deployable) and its value the
// file's maximised accuracy turned to a loss. A file whose objective is a
// command is refused with why.
func TestBenchStudyFile(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "tinyml", "har-tiny.yaml")
	out, err := boa(t, "bench", "--problems", file, "--samplers", "random,gpbo-penalty", "--seeds", "1", "--budget", "8", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d runs, want 2: %s", len(rep.Results), out)
	}
	for _, r := range rep.Results {
		if r.Problem != "har-tiny-x8" || r.FeasibleShare == nil || *r.FeasibleShare != 1 || !(float64(r.FinalBest) < -80) {
			t.Errorf("%s: problem %q, feasible share %v, final best %v; want har-tiny-x8, 1, an accuracy above 80 %% as a loss", r.Sampler, r.Problem, r.FeasibleShare, r.FinalBest)
		}
	}
	cmdFile := filepath.Join(t.TempDir(), "cmd.yaml")
	os.WriteFile(cmdFile, []byte("name: c\nspace:\n  x: {type: float, low: 0, high: 1}\nobjective:\n  command: [echo, \"1\"]\n"), 0o644)
	if _, err := boa(t, "bench", "--problems", cmdFile, "--samplers", "random", "--seeds", "1", "--budget", "2"); err == nil || !strings.Contains(err.Error(), "not a built-in function") {
		t.Errorf("a command objective: %v, want an error saying it is not a built-in function", err)
	}
}

// TestBenchLatencyBadDim: a dimension below 1 is an error naming the flag,
// not a panic in the kernel.
func TestBenchLatencyBadDim(t *testing.T) {
	for _, dim := range []string{"0", "-2", "100000001"} {
		_, err := boa(t, "bench", "latency", "--n", "5", "--dim", dim, "--samplers", "random")
		if err == nil || !strings.Contains(err.Error(), "--dim") {
			t.Errorf("--dim %s: %v, want an error about --dim", dim, err)
		}
	}
}

// TestBenchNoisyNeedsATable: --noisy changes only tabular problems; given
// without --table it would be accepted and silently do nothing.
func TestBenchNoisyNeedsATable(t *testing.T) {
	_, err := boa(t, "bench", "--problems", "branin", "--samplers", "random", "--seeds", "1", "--budget", "2", "--noisy", "--json")
	if err == nil || !strings.Contains(err.Error(), "--noisy") {
		t.Fatalf("%v, want an error about --noisy", err)
	}
}

// TestBenchSkipsProblemWithoutData: a problem whose data file is absent
// (MaxSAT-60 without its instance) is skipped with a message, as the spec
// (mixed §6.6) and mixed.ErrNoData say, and the other problems run.
func TestBenchSkipsProblemWithoutData(t *testing.T) {
	t.Setenv("BOA_MAXSAT_DIR", t.TempDir())
	out, err := boa(t, "bench", "--problems", "maxsat60,branin", "--samplers", "random", "--seeds", "1", "--budget", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Results) != 1 || rep.Results[0].Problem != "branin" {
		t.Fatalf("results %+v, want branin's run only", rep.Results)
	}
	if _, err := boa(t, "bench", "--problems", "maxsat60", "--samplers", "random", "--seeds", "1", "--budget", "3"); err == nil || !strings.Contains(err.Error(), "no problems") {
		t.Fatalf("only a problem without data: %v", err)
	}
}

// TestBenchMultiFidelity: --multifidelity runs the methods on NB201's two
// fidelities with the epoch budget, one trace entry per epoch and the
// test regret, and refuses a problem or pruner it does not know.
func TestBenchMultiFidelity(t *testing.T) {
	out, err := boa(t, "bench", "--multifidelity", "--problems", "nb201-mf:cifar10", "--samplers", "random,gpbo@asha", "--seeds", "1", "--budget", "600", "--json")
	if err != nil && strings.Contains(err.Error(), "no problems") {
		t.Skip(err) // no NB201 data here
	}
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d runs, want 2", len(rep.Results))
	}
	for _, r := range rep.Results {
		if r.Error != "" || len(r.Best) != 600 || r.TestRegret == nil {
			t.Errorf("%s: error %q, %d epochs, test regret %v; want none, 600, a value", r.Sampler, r.Error, len(r.Best), r.TestRegret)
		}
	}
	for _, bad := range [][]string{{"--problems", "branin"}, {"--problems", "nb201-mf:cifar10", "--samplers", "gpbo@median"}} {
		args := append([]string{"bench", "--multifidelity", "--seeds", "1"}, bad...)
		if _, err := boa(t, args...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// TestBenchAllRunsFailed: when no run succeeds, boa bench still writes its
// report and then exits with an error naming the first failure.
func TestBenchAllRunsFailed(t *testing.T) {
	dir := t.TempDir()
	// Hartmann-6 is negative, which the log transform refuses.
	_, err := boa(t, "bench", "--problems", "hartmann6", "--samplers", "gpbo+log", "--seeds", "2", "--budget", "5", "--out", dir)
	if err == nil || !strings.Contains(err.Error(), "all 2 runs failed; the first: hartmann6 gpbo+log seed 1") {
		t.Fatalf("err = %v, want one saying every run failed", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Fatal(err)
	}
}

// TestE2EBenchInterrupted: Ctrl-C during boa bench keeps the runs that
// finished: the summary and --out have them, and the exit status is 1.
func TestE2EBenchInterrupted(t *testing.T) {
	bin := boaproc.Binary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "bench", "--problems", "branin", "--samplers", "random,gpbo", "--seeds", "20", "--budget", "60", "--parallel", "1", "--out", dir)
	var stdout bytes.Buffer
	stderr := &boaproc.Buffer{}
	cmd.Stdout, cmd.Stderr = &stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(stderr.String(), "[3/40]") {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatalf("no three runs finished in 30 s:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	_ = cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted: ") {
		t.Fatalf("exit %v, want 1 saying it was interrupted; stderr:\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if n := len(rep.Results); n < 3 || n == 40 {
		t.Fatalf("%d runs in results.json, want the 3 or so that finished", n)
	}
	for _, r := range rep.Results {
		if r.Error != "" || len(r.Best) != 60 {
			t.Fatalf("an unfinished run was written: %s %s seed %d: %q", r.Problem, r.Sampler, r.Seed, r.Error)
		}
	}
	if !strings.Contains(stdout.String(), "branin") {
		t.Fatalf("no summary printed:\n%s", stdout.String())
	}
}

// TestBenchMultiObjective: multi-objective problems run beside a
// single-objective one; the summary has a table of its own with the
// hypervolume's figures, the report its columns, and --batch is refused.
func TestBenchMultiObjective(t *testing.T) {
	dir := t.TempDir()
	out, err := boa(t, "bench", "--problems", "branin,zdt1:4,nb201-acc-latency", "--samplers", "random,optuna-nsga2",
		"--seeds", "1", "--budget", "8", "--out", dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MEDIAN REGRET", "MEDIAN HV", "FRONT HV", "HV RATIO", "LOG10 HV GAP", "zdt1:4"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "median hypervolume gap @8") || !strings.Contains(string(md), "median HV ratio") {
		t.Errorf("report.md:\n%s", md)
	}
	if _, err := boa(t, "bench", "--problems", "zdt1:4", "--samplers", "random", "--seeds", "1", "--budget", "4", "--batch", "2"); err == nil || !strings.Contains(err.Error(), "several objectives") {
		t.Errorf("--batch on zdt1: %v", err)
	}
}
