package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boaopt/boa/bench"
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

// TestBenchLatencyBadDim: a dimension below 1 is an error naming the flag,
// not a panic in the kernel.
func TestBenchLatencyBadDim(t *testing.T) {
	for _, dim := range []string{"0", "-2"} {
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
