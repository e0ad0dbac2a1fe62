// Package epochtoy is what the tests of the multi-fidelity samplers
// share: a toy objective that reports each epoch, and the check that a
// sampler beats random search on it through a study. It is apart from
// samplertest, which the samplers' internal tests import, because it
// needs package study, which imports every sampler.
package epochtoy

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

// epochs is the toy's full training.
const epochs = 27

// Objective is a multi-fidelity objective: after epoch e of 27 its value
// is f(x) + 1/e − 1/27, f a sphere shifted to 0.3; each epoch is reported
// and the study's pruner may stop the trial.
func Objective(ctx context.Context, tr *study.Trial) (float64, error) {
	f := 0.0
	for _, v := range tr.Params {
		f += (v.(float64) - 0.3) * (v.(float64) - 0.3)
	}
	for e := 1; ; e++ {
		v := f + 1/float64(e) - 1.0/epochs
		if e == epochs {
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

// BeatsRandom checks that the multi-fidelity sampler name, with
// the pruner prn over Objective's epochs in 4-D, ends below random
// search's final best on most of the seeds and in the median, after
// trials trials.
func BeatsRandom(t *testing.T, name string, prn pruner.Pruner, seeds, trials int) {
	t.Helper()
	unit := func(n string) space.Param { return space.Param{Name: n, Kind: space.Float, Low: 0, High: 1} }
	best := func(name string, seed uint64) float64 {
		smp, err := sampler.New(name)
		if err != nil {
			t.Fatal(err)
		}
		st, err := study.New(space.MustNew(unit("a"), unit("b"), unit("c"), unit("d")), study.Options{Name: "toy", Sampler: smp, Seed: seed, Pruner: prn})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Optimize(context.Background(), Objective, trials, study.OptimizeOptions{}); err != nil {
			t.Fatal(err)
		}
		b, ok, err := st.Best(context.Background())
		if err != nil || !ok {
			t.Fatalf("%s: no best: %v", name, err)
		}
		return b.Value
	}
	var model, random []float64
	wins := 0
	for s := range uint64(seeds) {
		model, random = append(model, best(name, s+1)), append(random, best("random", s+1))
		if model[s] < random[s] {
			wins++
		}
	}
	t.Logf("final best, %d seeds of %d trials: %s %.4f, random %.4f", seeds, trials, name, model, random)
	slices.Sort(model)
	slices.Sort(random)
	if wins < seeds/2+1 || !(model[seeds/2] < random[seeds/2]) {
		t.Errorf("%s beat random on %d of %d seeds, medians %.4f against %.4f", name, wins, seeds, model[seeds/2], random[seeds/2])
	}
}
