package svmcbo

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/bench"
)

// TestLatencyTable: the comparisons use every run's final regret, a run
// without a feasible point as +Inf, and the summaries' medians.
func TestLatencyTable(t *testing.T) {
	var runs []bench.RunResult
	add := func(sampler string, regrets ...float64) {
		for i, v := range regrets {
			r := bench.RunResult{Problem: "nb201-latency:pixel2:14", Sampler: sampler, Seed: i + 1}
			if !math.IsInf(v, 1) {
				r.Regret = &v
			}
			share, test := 0.5, v
			r.FeasibleShare, r.TestRegret = &share, &test
			r.Best = bench.Trace{v}
			r.FinalBest = bench.Number(v)
			runs = append(runs, r)
		}
	}
	inf := math.Inf(1)
	add(latencyRandom, 3, 4, 5, 6, 7)
	add(latencyGPBO, 1, 2, 3, 4, 5)
	add(latencySVMCBO, 4, 5, 6, inf, inf)
	add(latencyPeer, 1, 2, 3, 4, 5)
	var out strings.Builder
	LatencyTable(&out, []bench.Report{*bench.NewReport(runs)})
	row := strings.Split(strings.TrimSpace(out.String()), "\n")[2]
	for _, want := range []string{"| pixel2:14 |", "| 5.000 / 5.000 / 0.50 |", "| 3.000 / 3.000 / 0.50 |", "| 6.000 / 6.000 / 0.50 |", "| **no** (p ", "| yes (p ", "| **no** (p 1) |"} {
		if !strings.Contains(row, want) {
			t.Errorf("row %q lacks %q", row, want)
		}
	}
}

// TestNB201LatencyStudy prints the table of docs/constraints.md, "The
// latency-constrained study", from the folders boa bench --out wrote
// (the commands are there):
//
//	BOA_BENCH_OUT=/tmp/nb201lat go test ./experiments/svmcbo -run TestNB201LatencyStudy -v
func TestNB201LatencyStudy(t *testing.T) {
	dir := os.Getenv("BOA_BENCH_OUT")
	if dir == "" {
		t.Skip("set BOA_BENCH_OUT to the folder holding the boa bench --out folders of the study (docs/constraints.md)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "results.json"))
	if len(files) == 0 {
		t.Fatalf("no */results.json in %s", dir)
	}
	var reports []bench.Report
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r bench.Report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		reports = append(reports, r)
	}
	var out strings.Builder
	LatencyTable(&out, reports)
	t.Log("\n" + out.String())
}
