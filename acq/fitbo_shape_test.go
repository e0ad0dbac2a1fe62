package acq_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/acq"
)

// The shape claims of 000 Fig. 3.2 (spec §9.1) on 1-D problems (8 seeds,
// 6 data points, M = 40 samples, a 201-point grid; tolerance-1e-6
// quadrature as the reference): FITBO-MM upper-bounds FITBO everywhere,
// and its argmax is close to FITBO's. The thesis's App. A.4 shows MM can
// miss the global maximiser, and so it does here: on some seeds MM's
// argmax is another mode (even, with M = 40, a point that is no peak of
// FITBO). "Close" is therefore checked in the majority: on more than half
// of the seeds the argmaxes are within 0.05 of each other (measured: 5 of
// 8 at M = 40, 6 of 8 at M = 50).
func TestFITBOShape1D(t *testing.T) {
	f := func(x []float64) float64 { return math.Sin(10*x[0]) + 2*(x[0]-0.6)*(x[0]-0.6) }
	close := 0
	const seeds = 8
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(19, seed))
		_, samples := fitboProblem(rng, 6, 1, 40, f)
		grid := make([][]float64, 201)
		for i := range grid {
			grid[i] = []float64{float64(i) / 200}
		}
		quad, mm := make([]float64, len(grid)), make([]float64, len(grid))
		acq.FITBO{Samples: samples, Tol: 1e-6}.EvalBatch(grid, quad)
		acq.FITBO{Samples: samples, MomentMatching: true}.EvalBatch(grid, mm)
		iq, im := 0, 0
		for i := range grid {
			if mm[i] < quad[i]-1e-6 {
				t.Errorf("seed %d x=%.3f: FITBO-MM %.8f below FITBO %.8f", seed, grid[i][0], mm[i], quad[i])
			}
			if quad[i] > quad[iq] {
				iq = i
			}
			if mm[i] > mm[im] {
				im = i
			}
		}
		if math.Abs(grid[iq][0]-grid[im][0]) <= 0.05 {
			close++
		}
		t.Logf("seed %d: argmax FITBO %.4f (α %.4f), FITBO-MM %.4f (α %.4f), FITBO there %.4f", seed, grid[iq][0], quad[iq], grid[im][0], mm[im], quad[im])
	}
	if 2*close <= seeds {
		t.Errorf("argmaxes within 0.05 on only %d of %d seeds", close, seeds)
	}
}
