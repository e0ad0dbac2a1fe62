package tpe_test

import (
	"context"
	"fmt"
	"math"

	"github.com/boaopt/boa/sampler/tpe"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// TPE on a conditional space: the degree exists only for the polynomial
// kernel, and each parameter's Parzen estimators use only the trials in
// which it was active.
func Example() {
	sp := space.MustNew(
		space.Param{Name: "kernel", Kind: space.Categorical, Choices: []string{"rbf", "poly"}},
		space.Param{Name: "degree", Kind: space.Int, Low: 2, High: 5, When: map[string][]string{"kernel": {"poly"}}},
		space.Param{Name: "C", Kind: space.Float, Low: 1e-3, High: 1e3, Log: true},
	)
	st, err := study.New(sp, study.Options{Sampler: tpe.New(), Seed: 1})
	if err != nil {
		panic(err)
	}
	err = st.Optimize(context.Background(), func(_ context.Context, t *study.Trial) (float64, error) {
		v := math.Abs(math.Log10(t.Float("C")) - 1) // best at C = 10
		if t.Params["kernel"] == "rbf" {
			return v + 1, nil
		}
		return v + math.Abs(float64(t.Int("degree")-3)), nil // best at degree 3
	}, 80, study.OptimizeOptions{})
	if err != nil {
		panic(err)
	}
	best, _, _ := st.Best(context.Background())
	fmt.Println(best.Params["kernel"], best.Int("degree"), math.Round(math.Log10(best.Float("C"))))
	// Output: poly 3 1
}
