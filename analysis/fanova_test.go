package analysis_test

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Importances against functions whose variance shares are known.
func TestImportancesKnown(t *testing.T) {
	cases := []struct {
		name string
		sp   *space.Space
		f    func(a space.Assignment) float64
		want map[string]float64 // analytic shares
		tol  float64
	}{
		{
			// f = 10·x0 + 0·x1: x0 explains everything.
			name: "linear",
			sp:   unit(2),
			f:    func(a space.Assignment) float64 { return 10 * a["x0"].(float64) },
			want: map[string]float64{"x0": 1, "x1": 0},
			tol:  0.05,
		},
		{
			// Additive, x ~ U(0,1): Var(x0) = 1/12, Var(2·x1²) = 4·(1/5 − 1/9)
			// = 16/45, Var(½·sin 2πx2) = 1/8; shares are the variances over
			// their sum.
			name: "additive",
			sp:   unit(3),
			f: func(a space.Assignment) float64 {
				x0, x1, x2 := a["x0"].(float64), a["x1"].(float64), a["x2"].(float64)
				return x0 + 2*x1*x1 + 0.5*math.Sin(2*math.Pi*x2)
			},
			want: func() map[string]float64 {
				v := []float64{1.0 / 12, 16.0 / 45, 1.0 / 8}
				s := v[0] + v[1] + v[2]
				return map[string]float64{"x0": v[0] / s, "x1": v[1] / s, "x2": v[2] / s}
			}(),
			tol: 0.05,
		},
		{
			// A categorical parameter that alone decides the value, next to
			// a float that does nothing and a log-scale integer.
			name: "categorical",
			sp: space.MustNew(
				space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly", "linear"}},
				space.Param{Name: "noise", Kind: space.Float, Low: 1e-3, High: 1, Log: true},
				space.Param{Name: "n", Kind: space.Int, Low: 1, High: 1000, Log: true},
			),
			f: func(a space.Assignment) float64 {
				return map[string]float64{"rbf": 0, "poly": 5, "linear": 1}[a["kernel"].(string)]
			},
			want: map[string]float64{"kernel": 1, "noise": 0, "n": 0},
			tol:  0.05,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := random(t, c.sp, 600, 7, c.f)
			imp, err := analysis.Importances(s, 1)
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for _, m := range imp {
				sum += m.Share
				if w := c.want[m.Param]; math.Abs(m.Share-w) > c.tol {
					t.Errorf("%s: share %.3f, want %.3f ± %.2f", m.Param, m.Share, w, c.tol)
				}
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Errorf("shares sum to %v, want 1", sum)
			}
			if !slices.IsSortedFunc(imp, func(a, b analysis.Importance) int {
				return cmp.Compare(b.Share, a.Share)
			}) {
				t.Errorf("not sorted by share: %v", imp)
			}
			t.Logf("%v", imp)
		})
	}
}

// The same seed gives the same importances; the direction does not matter.
func TestImportancesDeterministic(t *testing.T) {
	f := func(a space.Assignment) float64 { return a["x0"].(float64) + 0.3*a["x1"].(float64) }
	s := random(t, unit(3), 200, 3, f)
	a, err := analysis.Importances(s, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := analysis.Importances(s, 5)
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different importances:\n%v\n%v", a, b)
	}
	s.Direction = study.Maximize
	c, _ := analysis.Importances(s, 5)
	if !slices.Equal(a, c) {
		t.Errorf("maximize changed the importances:\n%v\n%v", a, c)
	}
}

func TestImportancesErrors(t *testing.T) {
	f := func(a space.Assignment) float64 { return a["x0"].(float64) }
	one := random(t, unit(2), 1, 1, f)
	if _, err := analysis.Importances(one, 1); err == nil || !strings.Contains(err.Error(), "at least 2 COMPLETE") {
		t.Errorf("1 trial: err = %v, want 'at least 2 COMPLETE'", err)
	}
	flat := random(t, unit(2), 50, 1, func(space.Assignment) float64 { return 3 })
	if _, err := analysis.Importances(flat, 1); err != analysis.ErrNoVariance {
		t.Errorf("constant values: err = %v, want ErrNoVariance", err)
	}
	// FAILED and PRUNED trials are not fitted.
	mixed := random(t, unit(2), 10, 1, f)
	for i := range mixed.Trials[1:] {
		mixed.Trials[i+1].State = []study.State{study.Failed, study.Pruned}[i%2]
	}
	if _, err := analysis.Importances(mixed, 1); err == nil {
		t.Error("1 COMPLETE among 10: want an error")
	}
}

// Conditional parameters: only those active in every COMPLETE trial are
// analysed (Optuna's intersection search space); a parameter with one
// legal value gets 0.
func TestImportancesConditional(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam"}},
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "momentum", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"opt": {"sgd"}}},
		space.Param{Name: "fixed", Kind: space.Categorical, Choices: []string{"only"}},
	)
	s := random(t, sp, 300, 2, func(a space.Assignment) float64 {
		return math.Log10(a["lr"].(float64))
	})
	imp, err := analysis.Importances(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	if share(imp, "momentum") != -1 {
		t.Errorf("momentum is inactive in some trials but has a share: %v", imp)
	}
	if share(imp, "fixed") != 0 {
		t.Errorf("fixed has one value; share = %v, want 0", share(imp, "fixed"))
	}
	if share(imp, "lr") < 0.95 {
		t.Errorf("lr share = %v, want > 0.95: %v", share(imp, "lr"), imp)
	}
}

// Beyond 4,000 COMPLETE trials a bounded sample is fitted, and the answer
// still finds the important parameter.
func TestImportancesLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("fits a forest on 4,000 trials")
	}
	s := random(t, unit(3), 6000, 9, func(a space.Assignment) float64 {
		return 3*a["x1"].(float64) + 0.1*a["x2"].(float64)
	})
	imp, err := analysis.Importances(s, 1)
	if err != nil {
		t.Fatal(err)
	}
	if imp[0].Param != "x1" || imp[0].Share < 0.9 {
		t.Errorf("importances = %v, want x1 first with > 0.9", imp)
	}
}
