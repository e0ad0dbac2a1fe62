package transform

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/internal/python"
)

// powerScript fits scikit-learn's PowerTransformer (no standardisation)
// to each data set, Box–Cox to the positive ones and Yeo–Johnson to the
// others, and prints the λ of each.
const powerScript = `
import json, sys
import numpy as np
from sklearn.preprocessing import PowerTransformer
out = []
for y in json.load(sys.stdin)["sets"]:
    y = np.asarray(y, dtype=float)
    method = "box-cox" if y.min() > 0 else "yeo-johnson"
    if method == "yeo-johnson":
        y = (y - y.mean()) / y.std(ddof=1)
    pt = PowerTransformer(method=method, standardize=False).fit(y.reshape(-1, 1))
    out.append(float(pt.lambdas_[0]))
json.dump(out, sys.stdout)
`

// powerSets are skewed and symmetric samples of both signs: a log-normal
// (λ near 0), a squared uniform, a Gaussian (λ near 1) and a shifted
// exponential with negative values.
func powerSets() [][]float64 {
	rng := rand.New(rand.NewPCG(7, 7))
	sets := make([][]float64, 4)
	for range 40 {
		sets[0] = append(sets[0], math.Exp(1.5*rng.NormFloat64()))
		u := rng.Float64()
		sets[1] = append(sets[1], 0.01+u*u)
		sets[2] = append(sets[2], 3+rng.NormFloat64())
		sets[3] = append(sets[3], rng.ExpFloat64()-1)
	}
	return sets
}

// TestPowerLambdaMatchesScikitLearn checks the fitted λ against
// scikit-learn's PowerTransformer (Brent's method on the same likelihood).
func TestPowerLambdaMatchesScikitLearn(t *testing.T) {
	py, err := python.Find("sklearn", "numpy")
	if err != nil {
		t.Skipf("scikit-learn (python3-sklearn) not available: %v; skipping the comparison", err)
	}
	sets := powerSets()
	var want []float64
	if err := python.RunJSON(py, powerScript, map[string]any{"sets": sets}, &want); err != nil {
		t.Fatalf("scikit-learn script: %v", err)
	}
	for i, y := range sets {
		_, _, lambda, ok := fitPower(y)
		if !ok || math.Abs(lambda-want[i]) > 1e-4 {
			t.Errorf("set %d: λ = %.6f (ok %v), scikit-learn %.6f", i, lambda, ok, want[i])
		}
	}
}

// TestPowerTransform checks what the study relies on: the order of the
// values is kept, a log-normal sample comes out nearly symmetric, and
// degenerate inputs are returned as they are.
func TestPowerTransform(t *testing.T) {
	for i, y := range powerSets() {
		z := PowerTransform(y)
		for a := range y {
			for b := range y {
				if y[a] < y[b] && !(z[a] < z[b]) {
					t.Fatalf("set %d: order lost: y %v < %v but z %v >= %v", i, y[a], y[b], z[a], z[b])
				}
			}
		}
	}
	logNormal := powerSets()[0]
	if _, _, lambda, _ := fitPower(logNormal); math.Abs(lambda) > 0.2 {
		t.Errorf("log-normal sample: λ = %.3f, want near 0 (the log)", lambda)
	}
	for _, y := range [][]float64{nil, {1, 2}, {3, 3, 3, 3}, {1, 1, 2, 2}} {
		if z := PowerTransform(y); !slices.Equal(z, y) {
			t.Errorf("PowerTransform(%v) = %v, want the values as they are", y, z)
		}
	}
	if tf, err := Parse("power"); err != nil || tf != Power {
		t.Errorf("Parse(power) = %v, %v", tf, err)
	}
}
