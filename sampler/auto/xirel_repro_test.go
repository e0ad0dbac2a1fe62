package auto_test

// gpbo's ξ option xi_rel (spec §4.1; docs/gp-defaults.md):
//
//	BOA_REPRO=1 go test ./sampler -run TestReproXiRel -v
//
// gpbo as shipped (ξ = 0) against ξ = 0.01·σ(x), on the continuous test
// functions of docs/benchmarks.md at their 60 evaluations, seeds 1..10.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

func TestReproXiRel(t *testing.T) {
	samplertest.NeedRepro(t, "compare gpbo with and without xi_rel")
	const seeds, trials = 10, 60
	fmt.Println("| problem | `gpbo` (ξ = 0) median regret @60 | ξ = 0.01σ (xi_rel) |")
	fmt.Println("|---|---|---|")
	for _, f := range []struct {
		name string
		dim  int
	}{{"branin", 0}, {"hartmann6", 0}, {"ackley", 5}, {"michalewicz", 5}, {"levy", 10}, {"rosenbrock", 10}} {
		fn, err := functions.Get(f.name, f.dim)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s-%d", f.name, fn.Dim)
		p := failing{name, samplertest.UnitSpace(t, fn.Dim), func(u []float64, _ *rand.Rand) (float64, bool) { return fn.EvalUnit(u), false }}
		row := "| " + name
		for _, xiRel := range []float64{0, 0.01} {
			regret := make([]float64, seeds)
			samplertest.ParallelSeeds(seeds, func(seed int) {
				g := gpbo.New()
				g.XiRel = xiRel
				_, best := runFailing(t, g, p, "nothing", uint64(seed), trials)
				regret[seed-1] = fn.Regret(best)
			})
			row += fmt.Sprintf(" | %.4g", samplertest.Median(regret))
		}
		fmt.Println(row + " |")
	}
}
