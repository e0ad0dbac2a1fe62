package mobo

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/problems/multiobjective"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	_ "github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
)

// run minimises f with s for budget evaluations, one at a time, and
// returns the hypervolume of what it found at f.Ref and the longest
// suggestion.
func run(t testing.TB, s sampler.Sampler, f multiobjective.Function, budget int, seed uint64) (float64, time.Duration) {
	t.Helper()
	ys, slowest := explore(t, s, samplertest.UnitSpace(t, f.Dim), f.Objectives, budget, seed, f.F)
	return pareto.Hypervolume(ys, f.Ref), slowest
}

// explore lets s minimise the objectives f of sp for budget evaluations,
// one at a time, and returns the values it observed, in order, and the
// longest suggestion.
func explore(t testing.TB, s sampler.Sampler, sp *space.Space, objectives, budget int, seed uint64, f func(u []float64) []float64) ([][]float64, time.Duration) {
	t.Helper()
	h := &sampler.History{Space: sp, Seed: seed, Objectives: objectives, Budget: budget}
	var ys [][]float64
	var slowest time.Duration
	for i := range budget {
		h.Trials = i
		start := time.Now()
		u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
		sp.Round(u)
		y := f(u)
		ys = append(ys, y)
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y[0], Ys: slices.Clone(y)})
	}
	return ys, slowest
}

// On ZDT1, ZDT2 (30 variables) and DTLZ2 (12 variables, 3 objectives),
// at 100 evaluations, mobo's median hypervolume is above random
// search's. MOBO_SEEDS sets the seeds (3).
func TestHypervolumeBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("minutes of GP fits")
	}
	seeds := samplertest.EnvInt("MOBO_SEEDS", 3)
	const budget = 100
	for _, name := range []string{"zdt1", "zdt2", "dtlz2"} {
		f, err := multiobjective.Get(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		var ours, theirs []float64
		var slowest time.Duration
		for seed := range seeds {
			hv, slow := run(t, New(), f, budget, uint64(seed+1))
			ours, slowest = append(ours, hv), max(slowest, slow)
			r, _ := sampler.New("random")
			hv, _ = run(t, r, f, budget, uint64(seed+1))
			theirs = append(theirs, hv)
		}
		mo, ra := samplertest.Median(ours), samplertest.Median(theirs)
		t.Logf("%s: median hypervolume mobo %.4f, random %.4f (front %.4f); mobo %.3f, slowest suggestion %v", name, mo, ra, f.FrontHV, ours, slowest.Round(time.Millisecond))
		if !(mo > ra) {
			t.Errorf("%s: mobo's median hypervolume %.4f is not above random's %.4f", name, mo, ra)
		}
	}
}

// BenchmarkSuggest times one suggestion after 100 uniform evaluations of
// ZDT1 (30 variables, 2 objectives) and DTLZ2 (12 variables, 3
// objectives), each from a cold start: both GPs fitted with all their
// restarts, as at a study's first model suggestion.
func BenchmarkSuggest(b *testing.B) {
	for _, name := range []string{"zdt1", "dtlz2"} {
		b.Run(name, func(b *testing.B) {
			f, _ := multiobjective.Get(name, 0)
			sp := samplertest.UnitSpace(b, f.Dim)
			rng := rand.New(rand.NewPCG(1, 2))
			h := &sampler.History{Space: sp, Seed: 1, Objectives: f.Objectives, Trials: 100}
			for range 100 {
				u := sp.Sample(rng)
				y := f.F(u)
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: y[0], Ys: y})
			}
			for b.Loop() {
				if _, err := New().Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
