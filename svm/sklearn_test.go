package svm

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/internal/python"
)

// sklearnScript fits scikit-learn's SVC, the reference code's classifier
// [reference code: ricky151192/SVMCBO], with gamma="scale" and returns its γ,
// intercept and decision values at the probe points.
const sklearnScript = `
import json, sys
import numpy as np
from sklearn.svm import SVC
d = json.load(sys.stdin)
X, T = np.array(d["X"]), np.array(d["T"])
m = SVC(C=d["C"], kernel="rbf", gamma="scale", tol=d["tol"], shrinking=False)
m.fit(X, np.array(d["y"]))
json.dump({"gamma": 1.0 / (X.shape[1] * X.var()),
           "intercept": float(m.intercept_[0]),
           "decision": m.decision_function(T).tolist()}, sys.stdout)
`

// TestSklearnParity compares decision values with scikit-learn's SVC on a
// small random data set. scikit-learn is optional: the test skips without
// it. Both solve the same strictly convex dual to a tolerance of 1e-8, so the
// decision values agree to about 1e-6 whatever the pivoting order.
func TestSklearnParity(t *testing.T) {
	py, err := python.Find("sklearn", "numpy")
	if err != nil {
		t.Skipf("scikit-learn (python3-sklearn) not available: %v; skipping the comparison", err)
	}
	X, y := noisy(21, 60)
	rng := rand.New(rand.NewPCG(4, 4))
	T := make([][]float64, 25)
	for i := range T {
		T[i] = []float64{rng.Float64(), rng.Float64()}
	}
	const C, tol = 2.0, 1e-8
	var ref struct {
		Gamma, Intercept float64
		Decision         []float64
	}
	in := map[string]any{"X": X, "y": y, "T": T, "C": C, "tol": tol}
	if err := python.RunJSON(py, sklearnScript, in, &ref); err != nil {
		t.Fatalf("scikit-learn script: %v", err)
	}
	m, err := Fit(X, y, Settings{C: C, Tol: tol})
	if err != nil {
		t.Fatal(err)
	}
	if g := m.Settings().Gamma; math.Abs(g-ref.Gamma) > 1e-12*ref.Gamma {
		t.Errorf("γ = %.15g, scikit-learn's scale %.15g", g, ref.Gamma)
	}
	if math.Abs(m.Intercept()-ref.Intercept) > 1e-5 {
		t.Errorf("b = %.9f, scikit-learn %.9f", m.Intercept(), ref.Intercept)
	}
	for i, x := range T {
		if d := m.Decision(x); math.Abs(d-ref.Decision[i]) > 1e-5 {
			t.Errorf("d(%v) = %.9f, scikit-learn %.9f", x, d, ref.Decision[i])
		}
	}
}
