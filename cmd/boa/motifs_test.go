package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// nb201Study searches NAS-Bench-201's cell with nasbowl; its command, a
// real subprocess, scores a cell by its 3×3 convolutions: 10 minus their
// number, minus 2 more when the edge 3←0 holds one.
const nb201Study = `name: cells
sampler: nasbowl
trials: 40
seed: 5
space:
  edge_1_0: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
  edge_2_0: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
  edge_2_1: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
  edge_3_0: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
  edge_3_1: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
  edge_3_2: {type: categorical, choices: [none, skip_connect, nor_conv_1x1, nor_conv_3x3, avg_pool_3x3]}
objective:
  command: [sh, -c, 'n=10; for op in "$@"; do [ "$op" = nor_conv_3x3 ] && n=$((n-1)); done; [ "$4" = nor_conv_3x3 ] && n=$((n-2)); echo "BOA_RESULT $n"', sh, "{edge_1_0}", "{edge_2_0}", "{edge_2_1}", "{edge_3_0}", "{edge_3_1}", "{edge_3_2}"]
  timeout: 30s
  logs: LOGS
`

// TestNASStudyAndMotifs runs a NAS study from a YAML file with nasbowl
// and asks boa motifs about it: the most helpful motifs involve the 3×3
// convolution, the only thing the objective rewards, and the best cell
// found is nearly the optimum (six of them, value 2).
func TestNASStudyAndMotifs(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(nb201Study, "LOGS", t.TempDir()))
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	out, err := boa(t, "best", "cells", "--storage", url, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var best struct{ Value float64 }
	if err := json.Unmarshal([]byte(out), &best); err != nil {
		t.Fatal(err)
	}
	if best.Value > 4 {
		t.Errorf("best value %v after 40 trials, want ≤ 4 (optimum 2)", best.Value)
	}
	out, err = boa(t, "motifs", "cells", "--storage", url, "--json", "--min-graphs", "5")
	if err != nil {
		t.Fatal(err)
	}
	var ms []struct {
		Motif string
		Score float64
	}
	if err := json.Unmarshal([]byte(out), &ms); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(ms) == 0 || !strings.Contains(ms[0].Motif, "nor_conv_3x3") || ms[0].Score >= 0 {
		t.Errorf("motifs %+v: want the most helpful to contain nor_conv_3x3 with a negative score", ms)
	}
	table, err := boa(t, "motifs", "cells", "--storage", url, "--top", "3")
	if err != nil || !strings.Contains(table, "score") || strings.Count(table, "\n") < 2+3 {
		t.Errorf("motif table (err %v):\n%s", err, table)
	}
	t.Logf("best %v\n%s", best.Value, table)
	// A study that is no architecture search is refused with the reason.
	file, url = writeStudy(t, strings.ReplaceAll(sphereStudy, "LOGS", t.TempDir()))
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "motifs", "sphere", "--storage", url); err == nil || !strings.Contains(err.Error(), "edge_1_0") {
		t.Errorf("motifs of a non-NAS study: err = %v", err)
	}
}
