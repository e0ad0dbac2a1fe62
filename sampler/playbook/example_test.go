package playbook_test

import (
	"context"
	"fmt"
	"math"

	"github.com/boaopt/boa/sampler/playbook"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// PLAyBOOK asked for batches of 4: each point of a batch is chosen with the
// earlier ones penalised, so the four are spread over the promising
// region instead of piling onto its best point. Ten batches come within
// 0.01 of Branin's minimum, 0.398.
func Example() {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: -5, High: 10},
		space.Param{Name: "y", Kind: space.Float, Low: 0, High: 15},
	)
	st, err := study.New(sp, study.Options{Sampler: playbook.New(true, false), Seed: 1})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for range 10 {
		batch, err := st.AskBatch(ctx, 4)
		if err != nil {
			panic(err)
		}
		for _, t := range batch {
			x, y := t.Float("x"), t.Float("y")
			v := math.Pow(y-5.1/(4*math.Pi*math.Pi)*x*x+5/math.Pi*x-6, 2) + 10*(1-1/(8*math.Pi))*math.Cos(x) + 10
			if err := st.Tell(ctx, t.ID, study.Result{Value: v}); err != nil {
				panic(err)
			}
		}
	}
	best, _, _ := st.Best(ctx)
	fmt.Printf("best %.2f\n", best.Value)
	// Output: best 0.40
}
