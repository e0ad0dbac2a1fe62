package casmopolitan

import (
	"testing"

	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestClassifierAvoidsFailingRegion: on a mixed toy (two categorical
// parameters of three values, two floats) whose trials crash where the
// first float's coordinate is below 0.35, around its optimum 0.3, casmopolitan
// with the classifier of computability proposes into the failing region
// less than with the fantasies of failed points alone (boa before it;
// docs/samplers.md, "Failed trials"):
//
//	BOA_REPRO=1 go test ./sampler/casmopolitan -run TestClassifierAvoidsFailingRegion -v
//
// (20 seeds; by default 4.)
func TestClassifierAvoidsFailingRegion(t *testing.T) {
	sp := samplertest.MixedSpace(t, 2, 3, 2)
	value := func(u []float64) float64 { return samplertest.MixedToy(sp, u) }
	fails := func(u []float64) bool { return u[2] < 0.35 }
	seeds, n := 4, 50
	if samplertest.ReproFull() {
		seeds = 20
	}
	failed := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	best := map[bool][]float64{true: make([]float64, seeds), false: make([]float64, seeds)}
	for _, classifier := range []bool{true, false} {
		samplertest.ParallelSeeds(seeds, func(seed int) {
			c := New()
			c.feas.IgnoreFailed = !classifier
			f, b := samplertest.RunFailing(t, c, sp, value, fails, uint64(seed), n)
			failed[classifier][seed-1], best[classifier][seed-1] = float64(f), b
		})
		mf, sf := samplertest.MeanSE(failed[classifier])
		mb, sb := samplertest.MeanSE(best[classifier])
		t.Logf("| mixed toy, x₀ < 0.35 fails | casmopolitan | classifier %v | %.1f ± %.1f of %d | %.4g ± %.2g |", classifier, mf, sf, n, mb, sb)
	}
	with, _ := samplertest.MeanSE(failed[true])
	without, _ := samplertest.MeanSE(failed[false])
	if 3*with > 2*without {
		t.Errorf("casmopolitan proposed %.1f failing points per run with the classifier, %.1f without: want at most two thirds", with, without)
	}
}
