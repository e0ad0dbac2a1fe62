package mobster_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// toy is a multi-fidelity objective: after epoch e of 27 its value is
// f(x) + 1/e, f a shifted sphere in 4-D; each epoch is reported and the
// pruner may stop the trial.
func toy(ctx context.Context, tr *study.Trial) (float64, error) {
	f := 0.0
	for _, v := range tr.Params {
		f += (v.(float64) - 0.3) * (v.(float64) - 0.3)
	}
	for e := 1; ; e++ {
		v := f + 1/float64(e) - 1.0/27
		if e == 27 {
			return v, nil
		}
		if err := tr.Report(ctx, int64(e), v); err != nil {
			return 0, err
		}
		if prune, err := tr.ShouldPrune(ctx); err != nil || prune {
			return v, errors.Join(err, study.ErrPruned)
		}
	}
}

// TestMobsterBeatsRandom: with ASHA over the toy's epochs, mobster's final
// best after 50 trials is below random search's on most seeds and in the
// median.
func TestMobsterBeatsRandom(t *testing.T) {
	const seeds, trials = 3, 50
	best := func(name string, seed uint64) float64 {
		smp, err := sampler.New(name)
		if err != nil {
			t.Fatal(err)
		}
		st, err := study.New(space.MustNew(p("a"), p("b"), p("c"), p("d")), study.Options{Name: "toy", Sampler: smp, Seed: seed,
			Pruner: pruner.SuccessiveHalving{MinResource: 1, ReductionFactor: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Optimize(context.Background(), toy, trials, study.OptimizeOptions{}); err != nil {
			t.Fatal(err)
		}
		b, ok, err := st.Best(context.Background())
		if err != nil || !ok {
			t.Fatalf("%s: no best: %v", name, err)
		}
		return b.Value
	}
	var mob, random []float64
	wins := 0
	for s := range uint64(seeds) {
		mob, random = append(mob, best("mobster", s+1)), append(random, best("random", s+1))
		if mob[s] < random[s] {
			wins++
		}
	}
	t.Logf("final best, %d seeds of %d trials: mobster %.4f, random %.4f", seeds, trials, mob, random)
	slices.Sort(mob)
	slices.Sort(random)
	if wins < seeds/2+1 || !(mob[seeds/2] < random[seeds/2]) {
		t.Errorf("mobster beat random on %d of %d seeds, medians %.4f against %.4f", wins, seeds, mob[seeds/2], random[seeds/2])
	}
}

func p(name string) space.Param { return space.Param{Name: name, Kind: space.Float, Low: 0, High: 1} }
