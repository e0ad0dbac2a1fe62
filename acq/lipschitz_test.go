package acq_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
)

// TestLocalLipschitzInFlatRegion is the illustration of Fig. 4.3 of seeds
// 000 and 002 (spec §4, §8.4): on a 1-D posterior with a flat region and a
// sharp peak, the local constant at a busy point in the flat region is
// below the global one, so that point's exclusion radius is larger, while
// the local constant at the peak is close to the global one.
func TestLocalLipschitzInFlatRegion(t *testing.T) {
	const l = 0.05
	var X [][]float64
	var y []float64
	for i := range 21 {
		x := float64(i) / 20
		X = append(X, []float64{x})
		y = append(y, -3*math.Exp(-0.5*math.Pow((x-0.7)/0.06, 2))) // flat but for a dip at 0.7
	}
	k := kernel.NewStationary(kernel.RBF, 1, false)
	k.SetLengthscales([]float64{l})
	m, err := gp.New(X, y, k, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	global := acq.Lipschitz(m, []float64{0}, []float64{1}, acq.LipschitzSettings{Candidates: 1000}, rng)
	local := func(c float64) float64 {
		lo, hi := []float64{max(c-l, 0)}, []float64{min(c+l, 1)}
		return acq.Lipschitz(m, lo, hi, acq.LipschitzSettings{Starts: [][]float64{{c}}}, rng)
	}
	flat, peak := local(0.1), local(0.66)
	// The largest slope of the dip: 3·e^{-1/2}/0.06 at x = 0.7 ± 0.06.
	if want := 3 * math.Exp(-0.5) / 0.06; math.Abs(global-want) > 0.15*want {
		t.Errorf("global L̂ = %.3g, want about %.3g", global, want)
	}
	if !(flat < 0.1*global) {
		t.Errorf("local L̂ in the flat region %.3g, global %.3g: want far below", flat, global)
	}
	if math.Abs(peak-global) > 0.05*global {
		t.Errorf("local L̂ at the peak %.3g, global %.3g: want about equal", peak, global)
	}
	mu, v := m.Predict([]float64{0.1})
	best := slices.Min(y)
	rLocal := acq.NewHardPenalty([]float64{0.1}, mu, math.Sqrt(v), best, flat, 1, -5).Radius
	rGlobal := acq.NewHardPenalty([]float64{0.1}, mu, math.Sqrt(v), best, global, 1, -5).Radius
	if !(rLocal > 10*rGlobal) {
		t.Errorf("exclusion radius in the flat region: local %.3g, global %.3g; want the local one larger", rLocal, rGlobal)
	}
	t.Logf("global L̂ %.3f, local L̂ flat %.3f, peak %.3f; radii %.3f and %.3f", global, flat, peak, rLocal, rGlobal)
}

// TestLipschitzFlatModel checks the flat-model guard: a constant posterior
// mean has no slope, and L̂ = 10 is used instead of 0.
func TestLipschitzFlatModel(t *testing.T) {
	X := [][]float64{{0.1}, {0.5}, {0.9}}
	m, err := gp.New(X, []float64{1, 1, 1}, kernel.NewStationary(kernel.Matern52, 1, false), 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	if got := acq.Lipschitz(m, []float64{0}, []float64{1}, acq.LipschitzSettings{}, rand.New(rand.NewPCG(1, 2))); got != 10 {
		t.Errorf("L̂ of a flat model = %v, want the guard 10", got)
	}
}
