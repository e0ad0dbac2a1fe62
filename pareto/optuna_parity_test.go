package pareto

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"

	"github.com/boaopt/boa/internal/python"
)

// Optuna 3.1's exact hypervolume (its WFG) gives Hypervolume's values on
// random sets of 2 to 4 objectives, with dominated points and duplicates.
// Python: one that imports Optuna (internal/python; Debian's python3-optuna).
func TestOptunaHypervolumeParity(t *testing.T) {
	py, err := python.Find("optuna._hypervolume", "numpy")
	if err != nil {
		t.Skipf("needs Optuna (python3-optuna; scripts/install-peers.sh): %v", err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	type set struct {
		Points [][]float64 `json:"points"`
		Ref    []float64   `json:"ref"`
	}
	var sets []set
	for k := range 30 {
		d := 2 + k%3
		s := set{Ref: make([]float64, d)}
		for i := range s.Ref {
			s.Ref[i] = 1 + rng.Float64()
		}
		for range 5 + rng.IntN(20) {
			p := make([]float64, d)
			for i := range p {
				p[i] = math.Round(10*rng.Float64()) / 10 // a grid: ties and duplicates
			}
			s.Points = append(s.Points, p)
		}
		sets = append(sets, s)
	}
	in, _ := json.Marshal(sets)
	script := `
import json, sys
import numpy as np
from optuna._hypervolume import WFG
out = []
for s in json.load(sys.stdin):
    ref = np.array(s["ref"])
    pts = np.array([p for p in s["points"] if all(v < r for v, r in zip(p, ref))])
    out.append(float(WFG().compute(pts, ref)) if len(pts) else 0.0)
print(json.dumps(out))
`
	cmd := exec.Command(py, "-c", script)
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("optuna: %v", err)
	}
	var want []float64
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for k, s := range sets {
		if got := Hypervolume(s.Points, s.Ref); math.Abs(got-want[k]) > 1e-12*(1+want[k]) {
			t.Errorf("set %d (%d objectives, %d points): Hypervolume %v, Optuna %v", k, len(s.Ref), len(s.Points), got, want[k])
		}
	}
}
