package gpbo

import (
	"testing"

	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestClassifierAvoidsFailingRegion: on Hartmann-6 whose trials crash
// where u₁ > 0.7 or u₂ > 0.8, gpbo with the classifier of computability
// proposes into the failing region much less than with the fantasies of
// failed points alone (boa before it; docs/samplers.md, "Failed
// trials"):
//
//	BOA_REPRO=1 go test ./sampler/gpbo -run TestClassifierAvoidsFailingRegion -v
//
// (20 seeds; by default 4.)
func TestClassifierAvoidsFailingRegion(t *testing.T) {
	fn, err := functions.Get("hartmann6", 0)
	if err != nil {
		t.Fatal(err)
	}
	sp := samplertest.UnitSpace(t, 6)
	fails := func(u []float64) bool { return u[0] > 0.7 || u[1] > 0.8 }
	seeds, n := 4, 40
	if samplertest.ReproFull() {
		seeds = 20
	}
	failed := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	best := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	for _, classifier := range []bool{true, false} {
		samplertest.ParallelSeeds(seeds, func(seed int) {
			g := New()
			g.feas.IgnoreFailed = !classifier
			f, b := samplertest.RunFailing(t, g, sp, fn.EvalUnit, fails, uint64(seed), n)
			failed[classifier][seed-1], best[classifier][seed-1] = float64(f), b
		})
		mf, sf := samplertest.MeanSE(failed[classifier])
		mb, sb := samplertest.MeanSE(best[classifier])
		t.Logf("| hartmann6, u₁ > 0.7 or u₂ > 0.8 fails | gpbo | classifier %v | %.1f ± %.1f of %d | %.4g ± %.2g |", classifier, mf, sf, n, mb, sb)
	}
	with, _ := samplertest.MeanSE(failed[true])
	without, _ := samplertest.MeanSE(failed[false])
	if 2*with > without {
		t.Errorf("gpbo proposed %.1f failing points per run with the classifier, %.1f without: want at most half", with, without)
	}
}
