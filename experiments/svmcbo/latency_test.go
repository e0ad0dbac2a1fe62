package svmcbo

import (
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/bench"
)

// TestLatencyTable: the comparisons use every run's final regret, a run
// without a feasible point as +Inf, and the summaries' medians; each mode
// has its table, and the mode table compares a sampler's two modes.
func TestLatencyTable(t *testing.T) {
	var runs []bench.RunResult
	problem := "nb201-latency:pixel2:14"
	add := func(sampler string, regrets ...float64) {
		for i, v := range regrets {
			r := bench.RunResult{Problem: problem, Sampler: sampler, Seed: i + 1}
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
	coupled := *bench.NewReport(runs)
	problem, runs = problem+":decoupled", nil
	add(latencyRandom, 2, 3, 4, 5, 6)
	add(latencyGPBO, 0, 0, 0, 1, 2)
	add(latencySVMCBO, 1, 2, 3, 4, 5)
	reports := []bench.Report{coupled, *bench.NewReport(runs)}
	for _, tc := range []struct {
		table func(io.Writer)
		want  []string
	}{
		{func(w io.Writer) { LatencyTable(w, reports, false) },
			[]string{"| pixel2:14 |", "| 5.000 / 5.000 / 0.50 |", "| 3.000 / 3.000 / 0.50 |", "| 6.000 / 6.000 / 0.50 |", "| **no** (p ", "| yes (p ", "| **no** (p 1) |"}},
		{func(w io.Writer) { LatencyTable(w, reports, true) },
			[]string{"| pixel2:14 | 4.000 / 4.000 / 0.50 | 0.000 / 0.000 / 0.50 | 3.000 / 3.000 / 0.50 | — | yes (p ", "| yes (p ", "| — |"}},
		{func(w io.Writer) { ModeTable(w, reports) },
			[]string{"| pixel2:14 | 5.000 → 4.000 (p ", "| 3.000 → 0.000 (p ", "| 6.000 → 3.000 (p "}},
	} {
		var out strings.Builder
		tc.table(&out)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(lines) != 3 {
			t.Errorf("want a header, a rule and one row:\n%s", out.String())
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(lines[2], want) {
				t.Errorf("row %q lacks %q", lines[2], want)
			}
		}
		if strings.Count(lines[0], "|") != strings.Count(lines[1], "|") || strings.Count(lines[0], "|") != strings.Count(lines[2], "|") {
			t.Errorf("header, rule and row have different columns:\n%s", out.String())
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
	LatencyTable(&out, reports, false)
	out.WriteString("\ndecoupled:\n\n")
	LatencyTable(&out, reports, true)
	out.WriteString("\ncoupled → decoupled:\n\n")
	ModeTable(&out, reports)
	t.Log("\n" + out.String())
}
