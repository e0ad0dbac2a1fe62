package perturb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/boaopt/boa/examples/custom-sampler/perturb" // registers "perturb"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// A registered sampler drives a study kept in SQLite by its name, and the
// study opened again later, here or in another process that imports the
// package, finds it by that name.
func Example() {
	dir, _ := os.MkdirTemp("", "perturb")
	defer os.RemoveAll(dir)
	ctx := context.Background()
	store, err := storage.Open(ctx, "sqlite:"+filepath.Join(dir, "boa.db"))
	if err != nil {
		panic(err)
	}
	defer store.Close()

	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5})
	objective := func(_ context.Context, t *study.Trial) (float64, error) {
		x := t.Float("x")
		return (x - 2) * (x - 2), nil
	}
	st, err := study.Create(ctx, store, study.Spec{Name: "parabola", Space: sp, Sampler: "perturb", Seed: 1})
	if err != nil {
		panic(err)
	}
	if err := st.Optimize(ctx, objective, 20, study.OptimizeOptions{}); err != nil {
		panic(err)
	}

	again, err := study.Open(ctx, store, "parabola") // as after a restart
	if err != nil {
		panic(err)
	}
	if err := again.Optimize(ctx, objective, 20, study.OptimizeOptions{}); err != nil {
		panic(err)
	}
	best, _, _ := again.Best(ctx)
	trials, _ := again.Trials(ctx)
	fmt.Printf("%s: %d trials, x = %.1f\n", again.Sampler().Name(), len(trials), best.Float("x"))
	// Output: perturb: 40 trials, x = 2.0
}
