package tpe

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestReproFailedAmongBad re-measures boa's one deviation from Optuna's
// split that a sequential study sees: failed trials among the bad (g)
// rather than left out, as Optuna does (docs/samplers.md, "TPE"):
//
//	BOA_REPRO=1 go test ./sampler/tpe -run TestReproFailedAmongBad -v
//
// Branin and Hartmann-6 where u₁ > 0.7 fails (and u₂ > 0.8 on
// Hartmann-6), 40 trials, 10 seeds; seconds.
func TestReproFailedAmongBad(t *testing.T) {
	samplertest.NeedRepro(t, "compare failed trials among the bad with failed trials left out")
	const seeds, trials = 10, 40
	fmt.Println("| problem | failed trials | failed per run (mean) | best value (mean ± s.e.) |")
	fmt.Println("|---|---|---|---|")
	for _, name := range []string{"branin", "hartmann6"} {
		fn, err := functions.Get(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		fails := func(u []float64) bool { return u[0] > 0.7 || (fn.Dim > 2 && u[1] > 0.8) }
		for _, shown := range []string{"left out (Optuna)", "among the bad (boa)"} {
			var nf, best []float64
			for seed := uint64(1); seed <= seeds; seed++ {
				h := &sampler.History{Space: samplertest.UnitSpace(t, fn.Dim), Seed: seed}
				n, b := 0, math.Inf(1)
				for i := range trials {
					h.Trials = i
					u, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
					if err != nil {
						t.Fatal(err)
					}
					if fails(u) {
						n++
						if shown == "among the bad (boa)" {
							h.Failed = append(h.Failed, u)
						}
						continue
					}
					y := fn.EvalUnit(u)
					b = min(b, y)
					h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y})
				}
				nf, best = append(nf, float64(n)), append(best, b)
			}
			f, _ := samplertest.MeanSE(nf)
			m, se := samplertest.MeanSE(best)
			fmt.Printf("| %s | %s | %.1f of %d | %.4g ± %.2g |\n", name, shown, f, trials, m, se)
		}
	}
}
