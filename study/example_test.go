package study_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/random"
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
	st, _ := study.New(sp, study.Options{Sampler: gpbo.New(), Seed: 1})
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

// Ask/tell: the loop is yours; Ask returns study.ErrBudget once the
// study has all the trials it wants.
func Example_askTell() {
	ctx := context.Background()
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5})
	st, err := study.New(sp, study.Options{Sampler: gpbo.New(), Seed: 1, Budget: 15})
	if err != nil {
		panic(err)
	}
	for {
		t, err := st.Ask(ctx)
		if errors.Is(err, study.ErrBudget) {
			break
		}
		if err != nil {
			panic(err)
		}
		x := t.Float("x")
		if err := st.Tell(ctx, t.ID, study.Result{Value: (x - 1) * (x - 1)}); err != nil {
			panic(err)
		}
	}
	best, _, _ := st.Best(ctx)
	fmt.Printf("x = %.1f\n", best.Float("x"))
	// Output: x = 1.0
}

// An objective stops a trial early, as Optuna's TrialPruned does, by
// returning its last intermediate value with study.ErrPruned.
func ExampleErrPruned() {
	ctx := context.Background()
	sp := space.MustNew(space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true})
	st, err := study.New(sp, study.Options{Sampler: random.Uniform{}, Seed: 1})
	if err != nil {
		panic(err)
	}
	err = st.Optimize(ctx, func(ctx context.Context, t *study.Trial) (float64, error) {
		loss := 1.0
		for epoch := range 10 {
			loss *= 1 - t.Float("lr") // a stand-in for training
			if err := t.Report(ctx, int64(epoch), loss); err != nil {
				return 0, err
			}
			if epoch == 2 && loss > 0.9 { // hopeless: stop here
				return loss, study.ErrPruned
			}
		}
		return loss, nil
	}, 10, study.OptimizeOptions{})
	if err != nil {
		panic(err)
	}
	ts, _ := st.Trials(ctx)
	n := map[study.State]int{}
	for _, t := range ts {
		n[t.State]++
	}
	fmt.Println(n[study.Complete], "complete,", n[study.Pruned], "pruned")
	// Output: 2 complete, 8 pruned
}

// A study with a pruner stops the trials whose learning curves fall
// behind: after each report the objective asks ShouldPrune, Optuna's
// trial.should_prune, and returns its last value with ErrPruned.
func ExampleTrial_ShouldPrune() {
	ctx := context.Background()
	sp := space.MustNew(space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true})
	st, err := study.New(sp, study.Options{Sampler: random.Uniform{}, Seed: 1, Pruner: pruner.NewMedian()})
	if err != nil {
		panic(err)
	}
	err = st.Optimize(ctx, func(ctx context.Context, t *study.Trial) (float64, error) {
		loss := 1.0
		for epoch := range 20 {
			loss *= 1 - t.Float("lr") // a stand-in for training
			if err := t.Report(ctx, int64(epoch), loss); err != nil {
				return 0, err
			}
			prune, err := t.ShouldPrune(ctx)
			if err != nil {
				return 0, err
			}
			if prune {
				return loss, study.ErrPruned
			}
		}
		return loss, nil
	}, 30, study.OptimizeOptions{})
	if err != nil {
		panic(err)
	}
	ts, _ := st.Trials(ctx)
	n := map[study.State]int{}
	for _, t := range ts {
		n[t.State]++
	}
	fmt.Println(n[study.Complete], "complete,", n[study.Pruned], "pruned")
	// Output: 12 complete, 18 pruned
}
