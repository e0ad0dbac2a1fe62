package sklearn

import (
	"math"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// TestSpaces pins each model's space to Bayesmark's (sklearn_funcs.py):
// the parameters in order, their kinds and bounds (logit ones in logit
// units), for the classifier and, where it differs, the regressor.
func TestSpaces(t *testing.T) {
	lg := func(p float64) float64 { return math.Log(p / (1 - p)) }
	type want struct {
		name      string
		kind      space.Kind
		low, high float64
		log       bool
	}
	treeWant := []want{
		{"max_depth", space.Int, 1, 15, false},
		{"logit_min_samples_split", space.Float, lg(0.01), lg(0.99), false},
		{"logit_min_samples_leaf", space.Float, lg(0.01), lg(0.49), false},
		{"logit_min_weight_fraction_leaf", space.Float, lg(0.01), lg(0.49), false},
		{"logit_max_features", space.Float, lg(0.01), lg(0.99), false},
		{"min_impurity_decrease", space.Float, 0, 0.5, false},
	}
	for _, tc := range []struct {
		task string
		want []want
	}{
		{"sklearn:knn:iris", []want{{"n_neighbors", space.Int, 1, 25, false}, {"p", space.Int, 1, 4, false}}},
		{"sklearn:svm:digits", []want{{"C", space.Float, 1, 1e3, true}, {"gamma", space.Float, 1e-4, 1e-3, true}, {"tol", space.Float, 1e-5, 1e-1, true}}},
		{"sklearn:svr:diabetes", []want{{"C", space.Float, 1, 1e3, true}, {"gamma", space.Float, 1e-4, 1e-3, true}, {"tol", space.Float, 1e-5, 1e-1, true}}},
		{"sklearn:dt:wine", treeWant},
		{"sklearn:rf:diabetes", treeWant},
		{"sklearn:mlp-adam:breast_cancer", []want{
			{"hidden_layer_sizes", space.Int, 50, 200, false},
			{"alpha", space.Float, 1e-5, 1e1, true},
			{"batch_size", space.Int, 10, 250, false},
			{"learning_rate_init", space.Float, 1e-5, 1e-1, true},
			{"tol", space.Float, 1e-5, 1e-1, true},
			{"logit_validation_fraction", space.Float, lg(0.1), lg(0.9), false},
			{"logit_beta_1", space.Float, lg(0.5), lg(0.99), false},
			{"logit_beta_2", space.Float, lg(0.9), lg(1 - 1e-6), false},
			{"epsilon", space.Float, 1e-9, 1e-6, true},
		}},
		{"sklearn:mlp-sgd:diabetes", []want{
			{"hidden_layer_sizes", space.Int, 50, 200, false},
			{"alpha", space.Float, 1e-5, 1e1, true},
			{"batch_size", space.Int, 10, 250, false},
			{"learning_rate_init", space.Float, 1e-5, 1e-1, true},
			{"logit_power_t", space.Float, lg(0.1), lg(0.9), false},
			{"tol", space.Float, 1e-5, 1e-1, true},
			{"logit_momentum", space.Float, lg(0.001), lg(0.999), false},
			{"logit_validation_fraction", space.Float, lg(0.1), lg(0.9), false},
		}},
		{"sklearn:ada:digits", []want{{"n_estimators", space.Int, 10, 100, false}, {"learning_rate", space.Float, 1e-4, 1e1, true}}},
		{"sklearn:gb:wine", []want{
			{"n_estimators", space.Int, 10, 100, false},
			{"learning_rate", space.Float, 1e-3, 1, true},
			{"max_depth", space.Int, 1, 5, false},
			{"subsample", space.Float, 0.5, 1, false},
		}},
		{"sklearn:lasso:iris", []want{{"C", space.Float, 1e-2, 1e2, true}, {"intercept_scaling", space.Float, 1e-2, 1e2, true}}},
		{"sklearn:linear:wine", []want{{"C", space.Float, 1e-2, 1e2, true}, {"intercept_scaling", space.Float, 1e-2, 1e2, true}}},
		{"sklearn:lasso:diabetes", []want{
			{"alpha", space.Float, 1e-2, 1e2, true},
			{"fit_intercept", space.Bool, 0, 0, false},
			{"max_iter", space.Int, 10, 5000, true},
			{"tol", space.Float, 1e-5, 1e-1, true},
			{"positive", space.Bool, 0, 0, false},
		}},
		{"sklearn:linear:diabetes", []want{
			{"alpha", space.Float, 1e-2, 1e2, true},
			{"fit_intercept", space.Bool, 0, 0, false},
			{"max_iter", space.Int, 10, 5000, true},
			{"tol", space.Float, 1e-4, 1e-1, true},
		}},
	} {
		t.Run(tc.task, func(t *testing.T) {
			p, err := New(tc.task)
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ps := p.Space().Params()
			if len(ps) != len(tc.want) {
				t.Fatalf("%d parameters %v, want %d", len(ps), p.Space().Names(), len(tc.want))
			}
			for i, w := range tc.want {
				g := ps[i]
				if g.Name != w.name || g.Kind != w.kind || g.Log != w.log ||
					math.Abs(g.Low-w.low) > 1e-12 || math.Abs(g.High-w.high) > 1e-12 {
					t.Errorf("parameter %d is %s %s [%g, %g] log %v, want %s %s [%g, %g] log %v",
						i, g.Name, g.Kind, g.Low, g.High, g.Log, w.name, w.kind, w.low, w.high, w.log)
				}
			}
			if _, ok := p.Optimum(); ok {
				t.Error("a real task has no known optimum")
			}
			if p.Name() != tc.task {
				t.Errorf("Name %q, want %q", p.Name(), tc.task)
			}
		})
	}
}

func TestNames(t *testing.T) {
	for _, name := range append(Names(), "sklearn:svm:digits:nll", "sklearn:rf:diabetes:mae", "sklearn:svc:iris") {
		p, err := New(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		p.Close()
	}
	if got := len(Names()); got != len(models)*len(datasets) {
		t.Errorf("%d names, want %d", got, len(models)*len(datasets))
	}
}

func TestBadNames(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"sklearn:svm", "want sklearn:MODEL:DATASET"},
		{"sklearn:svm:digits:err:x", "want sklearn:MODEL:DATASET"},
		{"svm:digits", "want sklearn:MODEL:DATASET"},
		{"sklearn:xgb:digits", `unknown model "xgb"; models: knn, svm,`},
		{"sklearn:svm:mnist", `unknown dataset "mnist"; datasets: iris,`},
		{"sklearn:svm:digits:mse", `metric "mse" does not apply to digits, a classification dataset; want one of err, nll`},
		{"sklearn:svm:diabetes:nll", "want one of mse, mae"},
		{"sklearn:svr:digits", "svr is for regression datasets; digits is a classification one: use svc (or svm)"},
		{"sklearn:svc:diabetes", "use svr (or svm)"},
	} {
		_, err := New(tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.name+": ") {
			t.Errorf("New(%q) = %v, want an error starting with the name and containing %q", tc.name, err, tc.want)
		}
	}
}

// TestSuites checks that the suite and the extra tasks are valid names,
// with no task in both, and that the suite mixes classification and
// regression and at least four models.
func TestSuites(t *testing.T) {
	seen := map[string]bool{}
	kinds, ms := map[bool]int{}, map[string]bool{}
	for _, name := range Suite() {
		m, _, clf, _, err := parseName(name)
		if err != nil {
			t.Fatal(err)
		}
		seen[name] = true
		kinds[clf]++
		ms[m.name] = true
	}
	if len(seen) < 8 || kinds[true] == 0 || kinds[false] == 0 || len(ms) < 4 {
		t.Errorf("suite %v: want at least 8 distinct tasks, both kinds, 4 models", Suite())
	}
	for _, name := range Extra() {
		if _, _, _, _, err := parseName(name); err != nil {
			t.Error(err)
		}
		if seen[name] {
			t.Errorf("%s is in both the suite and the extra tasks", name)
		}
	}
}
