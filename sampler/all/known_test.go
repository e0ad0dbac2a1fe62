package all_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/tpe"
	"github.com/boaopt/boa/space"
)

// knownSpaces are a box, where u₀ + u₁ ≤ 0.7 is admissible (a quarter of
// it), and a discrete space of 30 configurations, 12 of them admissible.
func knownSpaces() []struct {
	sp    *space.Space
	admit func(u []float64) bool
	value func(u []float64) float64
} {
	box := space.MustNew(
		space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "c", Kind: space.Float, Low: 0, High: 1},
	)
	grid := space.MustNew(
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 10},
	)
	return []struct {
		sp    *space.Space
		admit func(u []float64) bool
		value func(u []float64) float64
	}{
		// The objective's minimum (1, 1, ·) is not admissible: a sampler
		// led by its model alone would leave the admissible region.
		{box, func(u []float64) bool { return u[0]+u[1] <= 0.7 }, func(u []float64) float64 { return -u[0] - 2*u[1] + u[2]*u[2] }},
		{grid, func(u []float64) bool {
			a := grid.Decode(u)
			return a["opt"] != "sgd" && a["layers"].(int) <= 6
		}, func(u []float64) float64 {
			a := grid.Decode(u)
			return -float64(a["layers"].(int)) + map[string]float64{"sgd": 0, "adam": 1, "rmsprop": 2}[a["opt"].(string)]
		}},
	}
}

// TestSamplersProposeAdmissiblePoints: with limits known before
// evaluation (History.Admissible) the samplers whose searches screen their
// candidates (gpbo, onehot-gp, playbook, svmcbo, tpe, rs, sobol, casmopolitan, mobo) propose only
// admissible points themselves, in their designs and from their models,
// for 10 trials; every registered sampler that works on the space does
// through SuggestBatch, which asks again for a point that is not.
func TestSamplersProposeAdmissiblePoints(t *testing.T) {
	ctx := context.Background()
	screening := map[string]bool{"gpbo": true, "onehot-gp": true, "kb": true, "cl-min": true, "ts": true, "playbook": true, "playbook-l": true, "playbook-h": true, "playbook-ll": true, "playbook-hl": true,
		"rs": true, "sobol": true, "tpe": true, "casmopolitan": true, "svmcbo": true, "svmcbo-rf": true, "mobo": true}
	for _, ks := range knownSpaces() {
		for _, name := range sampler.Names() {
			if sampler.Check(name, ks.sp) != nil {
				continue
			}
			s := fast(t, name)
			h := &sampler.History{Space: ks.sp, Seed: 3, Budget: 10, Admissible: ks.admit} // svmcbo: phases of 1, 6 and 3
			for i := range 10 {
				h.Trials = i
				rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(3, uint64(trial))) }
				var u []float64
				if screening[name] {
					var err error
					if u, err = s.Suggest(ctx, h, rng(i)); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					ks.sp.Round(u)
				} else {
					us, _, err := sampler.SuggestBatch(ctx, s, h, 1, rng)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					u = us[0]
				}
				if !ks.admit(u) {
					t.Errorf("%s on %d parameters: trial %d proposes %v, which is not admissible", name, ks.sp.Len(), i, ks.sp.Decode(u))
					break
				}
				h.Observed = append(h.Observed, sampler.Observation{X: u, Y: ks.value(u)})
			}
		}
	}
}

// fast is the sampler name with a short design, so that 10 trials
// exercise its model too (svmcbo's follows History.Budget).
func fast(t *testing.T, name string) sampler.Sampler {
	s, err := sampler.New(name)
	if err != nil {
		t.Fatal(err)
	}
	switch s := s.(type) {
	case *gpbo.GPBO:
		s.InitPoints = 3
	case *tpe.TPE:
		s.Startup = 3
	}
	return s
}

// stubborn proposes the same point whatever the history: a user's sampler
// that knows nothing of the limits.
type stubborn struct{ u []float64 }

func (stubborn) Name() string { return "stubborn" }

func (s stubborn) Suggest(context.Context, *sampler.History, *rand.Rand) ([]float64, error) {
	return append([]float64(nil), s.u...), nil
}

// TestSuggestBatchScreening: a point that breaks a known limit is asked
// for again, with a fresh random source, so that random search becomes
// uniform over the admissible points; a sampler that never proposes one
// still gets its point evaluated after MaxScreenTries asks, rather than a
// stopped study. Without known limits nothing changes.
func TestSuggestBatchScreening(t *testing.T) {
	ctx := context.Background()
	ks := knownSpaces()[0]
	rng := func(trial int) *rand.Rand { return rand.New(rand.NewPCG(9, uint64(trial))) }
	random, _ := sampler.New("random")
	h := &sampler.History{Space: ks.sp, Seed: 9}
	plain, _, err := sampler.SuggestBatch(ctx, random, h, 200, rng)
	if err != nil {
		t.Fatal(err)
	}
	h.Admissible = ks.admit
	screened, _, err := sampler.SuggestBatch(ctx, random, h, 200, rng)
	if err != nil {
		t.Fatal(err)
	}
	kept := 0
	for i := range plain {
		if !ks.admit(screened[i]) {
			t.Fatalf("point %d of 200 is not admissible: %v", i, screened[i])
		}
		// An admissible first draw is kept as it was.
		if ks.admit(plain[i]) {
			kept++
			if screened[i][0] != plain[i][0] || screened[i][1] != plain[i][1] {
				t.Fatalf("point %d was admissible, yet screening changed it: %v, then %v", i, plain[i], screened[i])
			}
		}
	}
	if kept < 20 {
		t.Errorf("only %d of 200 uniform points were admissible; the test needs a region of about a quarter", kept)
	}
	bad := stubborn{u: []float64{0.9, 0.9, 0.5}}
	us, _, err := sampler.SuggestBatch(ctx, bad, h, 2, rng)
	if err != nil || len(us) != 2 || us[0][0] != 0.9 {
		t.Errorf("a sampler that never proposes an admissible point: %v, %v; want its point, evaluated", us, err)
	}
}
