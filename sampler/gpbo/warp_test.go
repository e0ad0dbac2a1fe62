package gpbo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// TestWarpFitsAWarpedAxis: on y = sin(8π x³), stationary in u = x³ but
// not in x, the warped fit finds a > 1 (the Kumaraswamy CDF 1 − (1 − x^a)^b
// is x³ at a = 3, b = 1) and a higher marginal likelihood than the fit
// without warping; the categorical's one-hot columns are not warped.
func TestWarpFitsAWarpedAxis(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}, space.Param{Name: "c", Kind: space.Categorical, Choices: []string{"p", "q"}})
	var obs []sampler.Observation
	for i := range 40 {
		x := (float64(i) + 0.5) / 40
		for _, c := range []float64{0, 1} {
			obs = append(obs, sampler.Observation{X: []float64{x, c}, Y: math.Sin(8*math.Pi*x*x*x) + 0.1*c})
		}
	}
	plain, err := New().Fit(sp, obs, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	g := New()
	if err := g.Configure(sampler.Options{"warp": "true"}); err != nil || !g.Warp {
		t.Fatalf("Configure(warp: true) = %v, Warp %v", err, g.Warp)
	}
	warped, err := g.Fit(sp, obs, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	w, ok := warped.Kernel().(*kernel.Warp)
	if !ok {
		t.Fatalf("kernel %T, want *kernel.Warp", warped.Kernel())
	}
	if dims := w.Dims(); len(dims) != 1 || dims[0] != 0 {
		t.Errorf("warped features %v, want [0] (x; not the one-hot columns of c)", dims)
	}
	a, b := w.Shapes()
	t.Logf("a = %.3g, b = %.3g; log marginal likelihood %.2f warped, %.2f not", a[0], b[0], warped.LogMarginal(), plain.LogMarginal())
	if a[0] < 1.5 {
		t.Errorf("a = %v, want > 1.5 (near 3)", a[0])
	}
	if warped.LogMarginal() <= plain.LogMarginal() {
		t.Errorf("log marginal likelihood %v warped, %v not: the warp should fit better", warped.LogMarginal(), plain.LogMarginal())
	}
	if err := New().Configure(sampler.Options{"warp": "true", "marginalise": "ess"}); err == nil {
		t.Error("warp with marginalise: ess accepted")
	}
}
