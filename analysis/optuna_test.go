package analysis_test

import (
	"math"
	"testing"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/internal/python"
	"github.com/boaopt/boa/space"
)

// optunaScript computes Optuna's fANOVA importances (normalised, as
// get_param_importances returns them) of the trials it reads.
const optunaScript = `
import json, sys, warnings
warnings.filterwarnings("ignore")
import optuna
from optuna.distributions import FloatDistribution
from optuna.importance import FanovaImportanceEvaluator, get_param_importances
optuna.logging.set_verbosity(optuna.logging.ERROR)
out = []
for c in json.load(sys.stdin):
    st = optuna.create_study()
    dists = {n: FloatDistribution(0, 1) for n in c["Names"]}
    st.add_trials([optuna.trial.create_trial(params=dict(zip(c["Names"], x)), distributions=dists, value=y)
                   for x, y in zip(c["X"], c["Y"])])
    out.append(get_param_importances(st, evaluator=FanovaImportanceEvaluator(seed=0)))
json.dump(out, sys.stdout)
`

// Importances against Optuna's FanovaImportanceEvaluator on the same
// trials (floats on [0,1], where the two encodings agree). The forests
// differ in their random draws, so shares agree within a tolerance, not
// exactly (measured: within 0.025). Skipped with -short (Optuna takes
// half a minute) or when python3 cannot import optuna and sklearn
// (Debian: python3-optuna, python3-sklearn).
func TestImportancesAgainstOptuna(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Optuna's fANOVA is slow")
	}
	py, err := python.Find("optuna", "sklearn")
	if err != nil {
		t.Skipf("Optuna with scikit-learn not available: %v; skipping the fANOVA parity check", err)
	}
	type tcase struct {
		Names []string
		X     [][]float64
		Y     []float64
	}
	fs := []struct {
		name string
		f    func(x0, x1, x2 float64) float64
	}{
		{"linear", func(x0, x1, x2 float64) float64 { return 10*x0 + x1 }},
		{"additive", func(x0, x1, x2 float64) float64 { return x0 + 2*x1*x1 + 0.5*math.Sin(2*math.Pi*x2) }},
		{"interaction", func(x0, x1, x2 float64) float64 { return x0*x1 + 0.3*x2 }},
		{"step", func(x0, x1, x2 float64) float64 {
			if x2 > 0.7 {
				return 1 + 0.2*x0
			}
			return 0.2 * x0
		}},
	}
	var cases []tcase
	var studies []analysis.Study
	for k, f := range fs {
		s := random(t, unit(3), 150, uint64(20+k), func(a space.Assignment) float64 {
			return f.f(a["x0"].(float64), a["x1"].(float64), a["x2"].(float64))
		})
		c := tcase{Names: s.Space.Names()}
		for _, tr := range s.Trials {
			c.X = append(c.X, []float64{tr.Params["x0"].(float64), tr.Params["x1"].(float64), tr.Params["x2"].(float64)})
			c.Y = append(c.Y, tr.Value)
		}
		cases = append(cases, c)
		studies = append(studies, s)
	}
	var want []map[string]float64
	if err := python.RunJSON(py, optunaScript, cases, &want); err != nil {
		t.Fatal(err)
	}
	for k, f := range fs {
		got, err := analysis.Importances(studies[k], 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range got {
			if w := want[k][m.Param]; math.Abs(m.Share-w) > 0.04 {
				t.Errorf("%s: %s share %.3f, Optuna %.3f", f.name, m.Param, m.Share, w)
			}
		}
		t.Logf("%s: boa %v, Optuna %v", f.name, got, want[k])
	}
}
