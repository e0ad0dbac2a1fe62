package casmopolitan

import (
	"testing"

	"github.com/boaopt/boa/sampler"

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
	newSampler := func(classifier bool) sampler.Sampler {
		c := New()
		c.feas.IgnoreFailed = !classifier
		return c
	}
	samplertest.CompareClassifier(t, "mixed toy, x₀ < 0.35 fails | casmopolitan", newSampler, sp, value, fails, 50, 2.0/3)
}
