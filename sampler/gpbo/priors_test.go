package gpbo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// TestDimScaledPriors: the option sets BoTorch's dimension-scaled priors,
// whose fitted lengthscales on a function that is flat along every input
// but the first stay near the prior median e^(√2 + ½ log d) on the flat
// ones, the signal variance at 1 and the noise at or above 1e-4.
func TestDimScaledPriors(t *testing.T) {
	g := New()
	if err := g.Configure(sampler.Options{"priors": "dim-scaled"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []sampler.Options{{"priors": "flat"}, {"priors": "dim-scaled", "mle": "true"}} {
		if err := New().Configure(bad); err == nil {
			t.Errorf("%v was accepted", bad)
		}
	}
	const d = 6
	params := make([]space.Param, d)
	for i := range params {
		params[i] = space.Param{Name: fmt.Sprintf("x%d", i), Kind: space.Float, High: 1}
	}
	sp := space.MustNew(params...)
	rng := rand.New(rand.NewPCG(1, 2))
	var obs []sampler.Observation
	for range 30 {
		u := sp.Sample(rng)
		obs = append(obs, sampler.Observation{X: u, Y: math.Sin(6 * u[0])})
	}
	m, err := g.Fit(sp, obs, rng)
	if err != nil {
		t.Fatal(err)
	}
	median := math.Exp(math.Sqrt2 + 0.5*math.Log(d))
	p := m.Params() // log lengthscales, log signal variance, log noise
	ls, s2, noise := p[:d], math.Exp(p[d]), m.Noise()
	for i := range ls {
		ls[i] = math.Exp(ls[i])
	}
	if ls[0] > 1 {
		t.Errorf("the active input's lengthscale is %.3g, want < 1", ls[0])
	}
	for i := 1; i < d; i++ {
		if ls[i] < median/3 {
			t.Errorf("flat input %d has lengthscale %.3g, want near the prior median %.3g", i, ls[i], median)
		}
	}
	if math.Abs(s2-1) > 1e-12 || noise < 1e-4 {
		t.Errorf("signal variance %v (want 1), noise %v (want ≥ 1e-4)", s2, noise)
	}
}
