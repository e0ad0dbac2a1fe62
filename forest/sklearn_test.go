package forest_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/forest"
	"github.com/boaopt/boa/internal/python"
)

// sklearnScript fits one DecisionTreeRegressor per case and prints, for each
// query point, the leaf's value and impurity (the within-leaf variance the
// reference code's σ reads, spec §3.4).
const sklearnScript = `
import json, sys
from sklearn.tree import DecisionTreeRegressor
out = []
for c in json.load(sys.stdin):
    t = DecisionTreeRegressor(min_samples_leaf=c["MinLeaf"], max_depth=c["MaxDepth"], random_state=0)
    t.fit(c["X"], c["Y"])
    leaves = t.apply(c["Q"])
    out.append({"Mean": [float(v) for v in t.predict(c["Q"])],
                "Var": [float(t.tree_.impurity[l]) for l in leaves]})
json.dump(out, sys.stdout)
`

// A single tree grown on the data itself with all features against
// scikit-learn's DecisionTreeRegressor: same cuts, so the same leaf means and
// variances everywhere. One feature, so that no two features tie (with
// several, scikit-learn and Fit break exact ties by different random
// feature orders). Skipped when python3 cannot import sklearn.
func TestAgainstSklearn(t *testing.T) {
	py, err := python.Find("sklearn")
	if err != nil {
		t.Skipf("scikit-learn (python3-sklearn) not available: %v; skipping the DecisionTreeRegressor comparison", err)
	}
	type tcase struct {
		MinLeaf  int
		MaxDepth *int // nil: no limit (None)
		X, Q     [][]float64
		Y        []float64
	}
	rng := rand.New(rand.NewPCG(13, 14))
	depth := 4
	var cases []tcase
	for _, c := range []struct {
		minLeaf  int
		maxDepth *int
		grid     float64 // round x to this grid (0: no rounding) to get repeated x, impure leaves
	}{{1, nil, 0}, {3, nil, 0}, {1, &depth, 0}, {1, nil, 0.05}, {2, &depth, 0.1}} {
		tc := tcase{MinLeaf: c.minLeaf, MaxDepth: c.maxDepth}
		for range 60 {
			x := rng.Float64()
			if c.grid > 0 {
				x = math.Round(x/c.grid) * c.grid
			}
			tc.X = append(tc.X, []float64{x})
			tc.Y = append(tc.Y, math.Sin(6*x)+0.3*rng.NormFloat64())
		}
		// Off the grids' midpoints (multiples of 0.025): scikit-learn
		// compares in float32, so a query on a threshold may fall on
		// either side of it there.
		for k := range 241 {
			tc.Q = append(tc.Q, []float64{float64(k)/200 - 0.1 + 1e-3})
		}
		tc.Q = append(tc.Q, tc.X...)
		cases = append(cases, tc)
	}
	var out []struct{ Mean, Var []float64 }
	if err := python.RunJSON(py, sklearnScript, cases, &out); err != nil || len(out) != len(cases) {
		t.Fatalf("scikit-learn script (%d cases for %d): %v", len(out), len(cases), err)
	}
	for i, tc := range cases {
		s := forest.Settings{Trees: 1, NoBootstrap: true, MinLeaf: tc.MinLeaf}
		if tc.MaxDepth != nil {
			s.MaxDepth = *tc.MaxDepth
		}
		f, err := forest.Fit(tc.X, tc.Y, s, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		for j, q := range tc.Q {
			mean, std := f.Predict(q)
			want, wantStd := out[i].Mean[j], math.Sqrt(math.Max(out[i].Var[j], 0))
			if math.Abs(mean-want) > 1e-9 || math.Abs(std-wantStd) > 1e-7 {
				t.Errorf("case %d (%+v) at x = %v: (μ, σ) = (%v, %v), sklearn (%v, %v)", i, s, q[0], mean, std, want, wantStd)
				break
			}
		}
	}
}
