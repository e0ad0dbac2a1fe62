package gpbo

import (
	"testing"

	"github.com/boaopt/boa/sampler"

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
	newSampler := func(classifier bool) sampler.Sampler {
		g := New()
		g.feas.IgnoreFailed = !classifier
		return g
	}
	samplertest.CompareClassifier(t, "hartmann6, u₁ > 0.7 or u₂ > 0.8 fails | gpbo", newSampler, sp, fn.EvalUnit, fails, 40, 0.5)
}
