package sklearn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	interpreters "github.com/boaopt/boa/internal/python"
	"github.com/boaopt/boa/space"
)

// needSklearn skips a test that runs the worker when no interpreter can
// import scikit-learn.
func needSklearn(t *testing.T) string {
	t.Helper()
	py, err := findPython()
	if err != nil {
		t.Skipf("these tests run scikit-learn, which is missing: %v (install python3-sklearn)", err)
	}
	return py
}

func newTask(t *testing.T, name string, opt Options) *Problem {
	t.Helper()
	p, err := NewWith(name, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// reference computes a loss the plain scikit-learn way, outside the
// worker: cross_val_score over the same folds.
const reference = `
import json, sys
from sklearn import datasets, model_selection, svm, ensemble
cfg = json.load(sys.stdin)
if cfg["model"] == "svc":
    X, y = datasets.load_iris(return_X_y=True)
    m = svm.SVC(kernel="rbf", **cfg["params"])
    cv = model_selection.StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    s = model_selection.cross_val_score(m, X, y, cv=cv, scoring="accuracy", error_score="raise")
    print(json.dumps(sum(1.0 - a for a in s) / len(s)))  # the worker's order of operations
else:
    X, y = datasets.load_diabetes(return_X_y=True)
    m = ensemble.RandomForestRegressor(n_estimators=10, random_state=0, **cfg["params"])
    cv = model_selection.KFold(n_splits=3, shuffle=True, random_state=0)
    s = model_selection.cross_val_score(m, X, y, cv=cv, scoring="neg_mean_squared_error", error_score="raise")
    print(json.dumps(sum(-float(a) for a in s) / len(s)))
`

// TestEvaluateMatchesScikitLearn checks the worker's loss against
// scikit-learn's own cross_val_score, for a classifier and for a
// regressor with logit-scaled parameters.
func TestEvaluateMatchesScikitLearn(t *testing.T) {
	py := needSklearn(t)
	for _, tc := range []struct {
		task, model string
		a           space.Assignment
		sk          map[string]any
	}{
		{"sklearn:svm:iris", "svc", space.Assignment{"C": 10.0, "gamma": 1e-3, "tol": 1e-3}, map[string]any{"C": 10.0, "gamma": 1e-3, "tol": 1e-3}},
		{"sklearn:rf:diabetes", "rf", space.Assignment{
			"max_depth": 5, "logit_min_samples_split": 0.0, "logit_min_samples_leaf": -3.0,
			"logit_min_weight_fraction_leaf": -4.0, "logit_max_features": 1.0, "min_impurity_decrease": 0.1,
		}, map[string]any{
			"max_depth": 5, "min_samples_split": 0.5, "min_samples_leaf": expit(-3),
			"min_weight_fraction_leaf": expit(-4), "max_features": expit(1), "min_impurity_decrease": 0.1,
		}},
	} {
		t.Run(tc.task, func(t *testing.T) {
			p := newTask(t, tc.task, Options{})
			got, err := p.Evaluate(tc.a, nil)
			if err != nil {
				t.Fatal(err)
			}
			var want float64
			if err := interpreters.RunJSON(py, reference, map[string]any{"model": tc.model, "params": tc.sk}, &want); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("loss %.17g, scikit-learn's cross_val_score %.17g", got, want)
			}
		})
	}
}

func expit(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// TestDeterministic evaluates the same configurations in two problems,
// so two processes: the losses must be identical, random forests and
// MLPs included (random_state=0 and fixed folds).
func TestDeterministic(t *testing.T) {
	needSklearn(t)
	for _, task := range []string{"sklearn:rf:wine", "sklearn:mlp-adam:iris", "sklearn:svm:breast_cancer:nll", "sklearn:lasso:diabetes:mae"} {
		t.Run(task, func(t *testing.T) {
			p1, p2 := newTask(t, task, Options{}), newTask(t, task, Options{})
			rng := rand.New(rand.NewPCG(3, 4))
			for range 3 {
				a := p1.Space().Decode(p1.Space().Sample(rng))
				v1, err1 := p1.Evaluate(a, nil)
				v2, err2 := p2.Evaluate(a, nil)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if v1 != v2 {
					t.Errorf("%v: %.17g in one process, %.17g in another", a, v1, v2)
				}
				if again, _ := p1.Evaluate(a, nil); again != v1 {
					t.Errorf("%v: the remembered value %g differs from %g", a, again, v1)
				}
			}
			if n := len(p1.Seconds()); n != 3 {
				t.Errorf("%d evaluations computed, want 3 (the repeats remembered)", n)
			}
		})
	}
}

// TestConcurrent runs many Evaluates at once on one problem with two
// workers (run it with -race): each result must equal a sequential
// evaluation's, and repeated configurations are fitted once.
func TestConcurrent(t *testing.T) {
	needSklearn(t)
	const task = "sklearn:knn:wine"
	p := newTask(t, task, Options{Processes: 2})
	seq := newTask(t, task, Options{Processes: 1})
	var as []space.Assignment
	for k := 1; k <= 6; k++ {
		as = append(as, space.Assignment{"n_neighbors": k, "p": 1 + k%2})
	}
	want := make([]float64, len(as))
	for i, a := range as {
		v, err := seq.Evaluate(a, nil)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(as))
	for rep := range 4 {
		for i, a := range as {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := p.Evaluate(a, nil)
				if err == nil && v != want[i] {
					err = fmt.Errorf("repeat %d of %v: %g, sequentially %g", rep, a, v, want[i])
				}
				if err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := len(p.Seconds()); n != len(as) {
		t.Errorf("%d fits for %d configurations", n, len(as))
	}
	if n := len(p.pool.pids()); n > 2 {
		t.Errorf("%d workers, at most 2 allowed", n)
	}
}

// TestPythonError sends arguments scikit-learn rejects: the error names
// the task and carries Python's message, the worker survives, and the
// problem goes on.
func TestPythonError(t *testing.T) {
	needSklearn(t)
	p := newTask(t, "sklearn:svm:iris", Options{Processes: 1})
	_, _, err := p.pool.eval([]byte(`{"C": -1.0, "gamma": 1e-3, "tol": 1e-3}`))
	var pe *pythonError
	if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "sklearn:svm:iris: scikit-learn: ") || !strings.Contains(err.Error(), "'C' parameter") {
		t.Fatalf("error %v, want the task and scikit-learn's complaint about C", err)
	}
	pids := p.pool.pids()
	if _, err := p.Evaluate(space.Assignment{"C": 1.0, "gamma": 1e-3, "tol": 1e-3}, nil); err != nil {
		t.Fatal(err)
	}
	if after := p.pool.pids(); len(pids) != 1 || len(after) != 1 || after[0] != pids[0] {
		t.Errorf("workers %v before, %v after: an exception must not cost the worker", pids, after)
	}
	if _, err := p.Evaluate(space.Assignment{"C": 1e9, "gamma": 1e-3, "tol": 1e-3}, nil); err == nil || !strings.Contains(err.Error(), "sklearn:svm:iris") {
		t.Errorf("a configuration outside the space: %v", err)
	}
}

// TestKilledWorker kills the worker between evaluations: the next one
// fails with the exit status, and the one after starts a new worker.
func TestKilledWorker(t *testing.T) {
	needSklearn(t)
	p := newTask(t, "sklearn:knn:iris", Options{Processes: 1})
	if _, err := p.Evaluate(space.Assignment{"n_neighbors": 3, "p": 2}, nil); err != nil {
		t.Fatal(err)
	}
	pids := p.pool.pids()
	if len(pids) != 1 {
		t.Fatalf("workers %v, want one", pids)
	}
	if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a := space.Assignment{"n_neighbors": 4, "p": 2}
	_, err := p.Evaluate(a, nil)
	if err == nil || !strings.Contains(err.Error(), "sklearn:knn:iris: the Python worker exited (signal: killed)") {
		t.Fatalf("after a kill: %v, want the task and the exit status", err)
	}
	if _, err := p.Evaluate(a, nil); err != nil {
		t.Errorf("the failure is not remembered and a new worker answers: %v", err)
	}
	if after := p.pool.pids(); len(after) != 1 || after[0] == pids[0] {
		t.Errorf("workers %v after the kill of %d", after, pids[0])
	}
}

// TestTimeout: a worker that does not answer in time is killed.
func TestTimeout(t *testing.T) {
	needSklearn(t)
	p := newTask(t, "sklearn:svm:digits", Options{Processes: 1, Timeout: time.Nanosecond})
	_, err := p.Evaluate(space.Assignment{"C": 1.0, "gamma": 1e-3, "tol": 1e-3}, nil)
	if err == nil || !strings.Contains(err.Error(), "did not answer within 1ns (killed)") {
		t.Fatalf("error %v", err)
	}
	if pids := p.pool.pids(); len(pids) != 0 {
		t.Errorf("workers %v left after a timeout", pids)
	}
}

// TestClose: Close kills every worker (the processes are gone, not only
// forgotten) and later Evaluates fail.
func TestClose(t *testing.T) {
	needSklearn(t)
	p := newTask(t, "sklearn:knn:iris", Options{Processes: 2})
	var wg sync.WaitGroup
	for k := 1; k <= 4; k++ {
		wg.Add(1)
		go func() { defer wg.Done(); p.Evaluate(space.Assignment{"n_neighbors": k, "p": 1}, nil) }()
	}
	wg.Wait()
	pids := p.pool.pids()
	if len(pids) == 0 {
		t.Fatal("no worker ran")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("worker %d is still there after Close (kill 0: %v)", pid, err)
		}
	}
	if _, err := p.Evaluate(space.Assignment{"n_neighbors": 9, "p": 1}, nil); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("Evaluate after Close: %v", err)
	}
}

// TestExitOnEOF: a worker whose input ends (boa gone) exits by itself,
// with status 0.
func TestExitOnEOF(t *testing.T) {
	py := needSklearn(t)
	p := newTask(t, "sklearn:knn:iris", Options{})
	w, err := start(py, p.name, p.pool.setup)
	if err != nil {
		t.Fatal(err)
	}
	w.stdin.Close()
	select {
	case _, open := <-w.lines:
		if open {
			t.Fatal("the worker wrote after its input ended")
		}
	case <-time.After(time.Minute): // a hang guard, not a timing test
		w.kill()
		t.Fatal("the worker did not exit when its input ended")
	}
	if w.exit != nil {
		t.Errorf("exit: %v", w.exit)
	}
}

// TestNoPython: an interpreter that cannot start gives an error naming
// the task.
func TestNoPython(t *testing.T) {
	p := newTask(t, "sklearn:knn:iris", Options{Python: "/nonexistent/python3"})
	_, err := p.Evaluate(space.Assignment{"n_neighbors": 3, "p": 2}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "sklearn:knn:iris: start /nonexistent/python3") {
		t.Errorf("error %v", err)
	}
}
