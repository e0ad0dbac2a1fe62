package study_test

import (
	"context"
	"fmt"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

func Example() {
	sp, err := space.New(
		space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5},
		space.Param{Name: "shape", Kind: space.Categorical, Choices: []string{"bowl", "flat"}},
	)
	if err != nil {
		panic(err)
	}
	st, _ := study.New(sp, study.Options{Sampler: sampler.NewGPBO(), Seed: 1})
	objective := func(_ context.Context, t *study.Trial) (float64, error) {
		x := t.Float("x")
		if t.String("shape") == "flat" {
			return 10, nil
		}
		return (x - 1) * (x - 1), nil
	}
	if err := st.Optimize(context.Background(), objective, 20, study.OptimizeOptions{}); err != nil {
		panic(err)
	}
	best, _, _ := st.Best(context.Background())
	fmt.Printf("shape = %s, x = %.2f\n", best.String("shape"), best.Float("x"))
	// Output: shape = bowl, x = 1.00
}
