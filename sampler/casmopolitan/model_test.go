package casmopolitan

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// TestCasmopolitanConstantMean checks that the local GP and the auxiliary
// GP of the guided restart have the fitted constant mean of spec §5.6,
// also when fitLocal reuses the previous fit to the same data.
func TestCasmopolitanConstantMean(t *testing.T) {
	sp := samplertest.MixedSpace(t, 3, 4, 2)
	cs, _ := newCasmoSpace(sp)
	c := New()
	rng := rand.New(rand.NewPCG(3, 4))
	var X [][]float64
	var raw []float64
	var obs []sampler.Observation
	for range 20 {
		u := sp.Sample(rng)
		X = append(X, cs.features(u, nil))
		raw = append(raw, samplertest.MixedToy(sp, u))
		obs = append(obs, sampler.Observation{X: u, Y: raw[len(raw)-1]})
	}
	y := c.transformY(raw)
	m, err := c.fitLocal(cs, X, y, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if m.Mean() == 0 {
		t.Fatal("the local GP has a zero mean")
	}
	// c is the maximum-likelihood value at the fitted hyper-parameters.
	ref, err := gp.NewWithMean(X, y, m.Kernel(), m.Noise(), gp.MeanConstant)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(ref.Mean() - m.Mean()); d > 1e-12 {
		t.Errorf("c = %v, profiled at the fitted parameters %v", m.Mean(), ref.Mean())
	}
	fits := c.warm.Fits()
	again, err := c.fitLocal(cs, X, y, rand.New(rand.NewPCG(5, 6)))
	if err != nil {
		t.Fatal(err)
	}
	if c.warm.Fits() != fits {
		t.Fatal("fitLocal refitted the same data")
	}
	if again.Mean() != m.Mean() {
		t.Errorf("reused fit has c = %v, the fit %v", again.Mean(), m.Mean())
	}
	_, _, aux := c.restartCentre(cs, obs[:8], 1.96, rand.New(rand.NewPCG(7, 8)))
	if aux == nil {
		t.Fatal("the auxiliary GP was not fitted")
	}
	if aux.Mean() == 0 {
		t.Error("the auxiliary GP has a zero mean")
	}
}
