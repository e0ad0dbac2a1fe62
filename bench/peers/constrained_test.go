package peers

import (
	"context"
	"reflect"
	"testing"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
)

// TestOptunaConstrainedTPE drives optuna-tpe-c with real Optuna on
// minimise x₁ + x₂ subject to m = x₁ + x₂ ≥ 1 (and its mirror,
// optuna-tpe, told the same values without the metric): the two agree on
// the 10 random start-up trials, then the constrained one, which reads the
// metric through constraints_func, proposes more feasible points.
func TestOptunaConstrainedTPE(t *testing.T) {
	need(t, OptunaTPEC)
	ctx := context.Background()
	sp := space.MustNew(
		space.Param{Name: "x1", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "x2", Kind: space.Float, Low: 0, High: 1},
	)
	one := 1.0
	limits := constraint.Set{"m": {Min: &one}}
	const n = 40
	asked := map[string][]space.Assignment{}
	feasible := map[string]int{}
	for _, name := range []string{OptunaTPE, OptunaTPEC} {
		s, err := NewConstrained(ctx, name, sp, 3, limits)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for i := range n {
			var a space.Assignment
			var id int64
			if i%2 == 0 { // both ways of telling carry the metrics
				a, err = s.Ask(ctx)
			} else {
				id, a, err = s.AskTrial(ctx)
			}
			if err != nil {
				t.Fatal(err)
			}
			v := a["x1"].(float64) + a["x2"].(float64)
			m := map[string]float64{"m": v}
			if i >= 10 && limits.Check(m).Feasible {
				feasible[name]++
			}
			ms := s.(interface {
				TellMetrics(context.Context, float64, map[string]float64) error
				TellTrialMetrics(context.Context, int64, float64, map[string]float64) error
			})
			if i%2 == 0 {
				err = ms.TellMetrics(ctx, v, m)
			} else {
				err = ms.TellTrialMetrics(ctx, id, v, m)
			}
			if err != nil {
				t.Fatal(err)
			}
			asked[name] = append(asked[name], a)
		}
	}
	if !reflect.DeepEqual(asked[OptunaTPE][:10], asked[OptunaTPEC][:10]) {
		t.Errorf("the start-up trials differ:\n%v\n%v", asked[OptunaTPE][:10], asked[OptunaTPEC][:10])
	}
	if feasible[OptunaTPEC] <= feasible[OptunaTPE] {
		t.Errorf("feasible proposals after the start-up: optuna-tpe-c %d, optuna-tpe %d of %d; want more from the constrained one",
			feasible[OptunaTPEC], feasible[OptunaTPE], n-10)
	}
	t.Logf("feasible proposals after the start-up: optuna-tpe-c %d, optuna-tpe %d of %d", feasible[OptunaTPEC], feasible[OptunaTPE], n-10)
}
