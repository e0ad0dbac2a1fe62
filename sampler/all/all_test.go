package all_test

import (
	"context"
	"log/slog"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/auto"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"github.com/boaopt/boa/sampler/playbook"
	"github.com/boaopt/boa/sampler/smac"
	"github.com/boaopt/boa/sampler/tpe"
	"github.com/boaopt/boa/space"
)

func TestNew(t *testing.T) {
	for _, name := range sampler.Names() {
		s, err := sampler.New(name)
		if err != nil || s.Name() != name {
			t.Errorf("New(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := sampler.New("hyperband"); err == nil {
		t.Error("New(hyperband) succeeded")
	}
	// The names studies stored before issue 33 may carry still open.
	for old, name := range map[string]string{"001-bo-wl": "graph-lcb-wl", "001-bo-edge": "graph-lcb-edge", "001-bo-GCN": "graph-lcb-gcn"} {
		if s, err := sampler.New(old); err != nil || s.Name() != name {
			t.Errorf("New(%q) = %v, %v; want %s", old, s, err, name)
		}
	}
}

// TestDiscreteSpaceNeverRepeats: on a 12-configuration space every
// configuration is proposed once, in the initial design (gpbo's Sobol
// points; the uniform points of onehot-gp and cocabo, whose designs of 24
// cover all 12 trials here) as well as by gpbo's model, which enumerates
// the space exactly, and by TPE's and smac-like's.
func TestDiscreteSpaceNeverRepeats(t *testing.T) {
	sp, err := space.New(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 4},
	)
	if err != nil {
		t.Fatal(err)
	}
	f := func(a space.Assignment) float64 {
		return float64(a["layers"].(int)) + map[string]float64{"sgd": 2, "adam": 0, "rmsprop": 1}[a["opt"].(string)]
	}
	tpe := tpe.New()
	tpe.Startup = 3
	smac := smac.New()
	smac.InitPoints = 3
	for _, s := range []sampler.Sampler{gpbo.New(), gpbo.NewOneHot(), cocabo.New(), tpe, playbook.New(true, true), smac} {
		h := &sampler.History{Space: sp, Seed: 5}
		seen := map[string]bool{}
		for i := range 12 {
			h.Trials = i
			u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(5, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			sp.Round(u)
			k := sp.Key(u)
			if seen[k] {
				t.Errorf("%s: trial %d repeats %s", s.Name(), i, k)
			}
			seen[k] = true
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: f(sp.Decode(u))})
		}
	}
	// Four 3-valued parameters: for some seeds two points of gpbo's Sobol
	// design round to the same configuration.
	var ps []space.Param
	for _, name := range []string{"a", "b", "c", "d"} {
		ps = append(ps, space.Param{Name: name, Kind: space.Categorical, Choices: []string{"x", "y", "z"}})
	}
	sp4 := space.MustNew(ps...)
	for seed := range uint64(20) {
		h := &sampler.History{Space: sp4, Seed: seed}
		seen := map[string]bool{}
		for i := range 5 { // gpbo's design
			h.Trials = i
			u, err := gpbo.New().Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, uint64(i))))
			if err != nil {
				t.Fatal(err)
			}
			if k := sp4.Key(u); seen[k] {
				t.Errorf("gpbo, seed %d: design point %d repeats %s", seed, i, k)
			} else {
				seen[k] = true
			}
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: float64(i)})
		}
	}
}

// When the surrogate cannot be fitted, gpbo and onehot-gp fall back to a
// random point; it must be one not tried yet. The fit is made to fail with
// a non-finite target, which a study never passes (it records such a trial
// as failed). Before the fallback looked at the history, 14 of 20 seeds
// repeated one of the 3 tried configurations of 4.
func TestFallbackPointIsUntried(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "a", Kind: space.Categorical, Choices: []string{"x", "y"}},
		space.Param{Name: "b", Kind: space.Categorical, Choices: []string{"x", "y"}},
	)
	quiet := slog.New(slog.DiscardHandler)
	g := gpbo.New()
	g.InitPoints, g.Logger = 2, quiet
	o := gpbo.NewOneHot()
	o.InitPoints, o.Logger = 2, quiet
	tried := [][]float64{{0.25, 0.25}, {0.75, 0.25}, {0.25, 0.75}}
	for _, s := range []sampler.Sampler{g, o} {
		for seed := range uint64(20) {
			h := &sampler.History{Space: sp, Seed: seed, Trials: len(tried)}
			for i, u := range tried {
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: float64(i)})
			}
			h.Observed[2].Y = math.Inf(1)
			u, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(seed, 1)))
			if err != nil {
				t.Fatal(err)
			}
			if k := sp.Key(u); k != sp.Key([]float64{0.75, 0.75}) {
				t.Errorf("%s, seed %d: fallback proposed %s, tried already", s.Name(), seed, k)
			}
		}
	}
}

// TestFailedPointsAreNotProposedAgain: on a 24-configuration space, after
// 8 completed trials (past every design here), every model-based sampler
// makes 8 suggestions that all fail, each joining History.Failed; none
// repeats a failed or completed configuration. (Before History.Failed, casmopolitan proposed
// the same failed design point on every call.)
func TestFailedPointsAreNotProposedAgain(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
		space.Param{Name: "wd", Kind: space.Bool},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 4},
	)
	f := func(a space.Assignment) float64 {
		v := float64(a["layers"].(int)) + map[string]float64{"sgd": 2, "adam": 0, "rmsprop": 1}[a["opt"].(string)]
		if a["wd"].(bool) {
			v += 0.5
		}
		return v
	}
	fast := cocabo.New()
	fast.InitPoints = 4
	casmo := casmopolitan.New()
	casmo.InitPoints = 4
	onehot := gpbo.NewOneHot()
	onehot.InitPoints = 4
	tpe := tpe.New()
	tpe.Startup = 4
	playbook := playbook.New(true, true)
	playbook.Model.InitPoints = 4
	smac := smac.New()
	smac.InitPoints = 4
	for _, s := range []sampler.Sampler{gpbo.New(), onehot, fast, casmo, auto.New(), tpe, playbook, smac} {
		h := &sampler.History{Space: sp, Seed: 2}
		ctx := context.Background()
		rng := func(i int) *rand.Rand { return rand.New(rand.NewPCG(2, uint64(i))) }
		src := rng(1000)
		for range 8 {
			u := sp.Sample(src)
			h.Observed = append(h.Observed, sampler.Observation{X: u, Y: f(sp.Decode(u))})
		}
		keys := map[string]bool{}
		for _, o := range h.Observed {
			keys[sp.Key(o.X)] = true
		}
		for i := range 8 {
			h.Trials = len(h.Observed) + i
			u, err := s.Suggest(ctx, h, rng(h.Trials))
			if err != nil {
				t.Fatalf("%s: %v", s.Name(), err)
			}
			sp.Round(u)
			if k := sp.Key(u); keys[k] {
				t.Fatalf("%s: suggestion %d repeats %s, completed or failed before", s.Name(), i, k)
			} else {
				keys[k] = true
			}
			h.Failed = append(h.Failed, u)
		}
	}
}

// TestPendingPointsAreNotNearlyRepeated: in a batch of 8 (each point
// asked with the earlier ones pending, as in a parallel study) no point
// repeats a pending one. The 120 completed trials are uniform points of a
// smooth 3-D function with a deep Gaussian well, so the model expects a
// large improvement at the well's bottom and the first point goes there.
// Kriging Believer fantasises it at its posterior mean, far below the best
// observed value. While EI's incumbent was the best observed value only,
// EI saw a sure improvement right beside the pending point: over seeds
// 1-10, 61 of gpbo's 70 later points and 47 of casmopolitan's lay within
// 1e-6 of a pending one (many within 1e-9). With the fantasies counted in
// the incumbent (bo.FantasyIncumbent) none did, and the closest was 4.1e-5
// (gpbo) and 6.9e-5 (casmopolitan) away. Kriging Believer does not keep
// them 1e-3 apart near the optimum (18 and 37 of 70 were closer): the
// fitted noise keeps a fantasy from removing the variance around it
// (docs/samplers.md, "Pending trials").
func TestPendingPointsAreNotNearlyRepeated(t *testing.T) {
	const minDist = 1e-5
	for _, mk := range []func() sampler.Sampler{
		func() sampler.Sampler { return gpbo.New() },
		func() sampler.Sampler { return casmopolitan.New() },
		func() sampler.Sampler { return playbook.New(false, false) }, // LP: no zero at the pending points
		func() sampler.Sampler { s, _ := sampler.New("cl-min"); return s },
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			s, h := mk(), samplertest.WellHistory(t, seed)
			us, _, err := sampler.SuggestBatch(context.Background(), s, h, 8, func(i int) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(i))) })
			if err != nil {
				t.Fatal(err)
			}
			for i, u := range us {
				for j, p := range us[:i] {
					if d := math.Sqrt(samplertest.SqDist(u, p)); d < minDist {
						t.Errorf("%s, seed %d: point %d of the batch is %.2g from point %d, which was pending", s.Name(), seed, i, d, j)
					}
				}
			}
		}
	}
}
