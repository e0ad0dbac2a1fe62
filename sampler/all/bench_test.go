package all_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// BenchmarkGPBOSuggestPending times one gpbo suggestion with n = 800
// observations and 64 pending points (64 parallel workers): the fit is
// reused (the same data each op), so the op is Kriging Believer and the
// acquisition search.
func BenchmarkGPBOSuggestPending(b *testing.B) {
	h := pendingHistory(800, 10, 64)
	g := gpbo.New()
	for b.Loop() {
		if _, err := g.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlaybookSuggestPending times one suggestion of each PLAyBOOK
// variant and of kb with 15 trials running (16 workers) after 200
// completed ones on Ackley-10: the global variants make one Lipschitz
// search, the local ones one per running trial.
func BenchmarkPlaybookSuggestPending(b *testing.B) {
	h := pendingHistory(200, 10, 15)
	for _, name := range []string{"kb", "playbook-l", "playbook-h", "playbook-ll", "playbook-hl"} {
		s, _ := sampler.New(name)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pendingHistory is n completed trials of Ackley-d and pending running
// ones at uniform random points.
func pendingHistory(n, d, pending int) *sampler.History {
	rng := rand.New(rand.NewPCG(1, 2))
	sp, obs := samplertest.AckleyObservations(n, d, rng)
	h := &sampler.History{Space: sp, Seed: 1, Trials: n + pending, Observed: obs}
	for range pending {
		h.Pending = append(h.Pending, sp.Sample(rng))
	}
	return h
}

// BenchmarkCoCaBOSuggestPending is BenchmarkGPBOSuggestPending for CoCaBO
// on Func-3C: its Kriging Believer adds the pending points too.
func BenchmarkCoCaBOSuggestPending(b *testing.B) {
	const n, pending = 400, 64
	p, err := mixed.Get("func3c")
	if err != nil {
		b.Fatal(err)
	}
	sp := p.Space()
	rng := rand.New(rand.NewPCG(1, 2))
	h := &sampler.History{Space: sp, Seed: 1, Trials: n + pending, Budget: 2 * n, Observed: mixedObservations(b, p, n, rng)}
	for range pending {
		h.Pending = append(h.Pending, sp.Sample(rng))
	}
	c := cocabo.New()
	for b.Loop() {
		if _, err := c.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, 1))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMixedSuggest times suggestions of the mixed-space samplers with
// n uniform random observations of Func-3C (3 categorical, 2 continuous
// parameters), Ackley-5C (5 categorical with 17 levels, 1 continuous),
// Ackley-53 (50 binary, 3 continuous) and Pest (25 categorical with 5
// levels).
// Each op is a fresh sampler that first suggests once at n−1 observations
// untimed (its first, cold hyper-parameter fit), then 10 consecutive timed
// suggestions at n..n+9, so refits every 10 iterations are counted as in a
// running study; "s/suggest" reports their mean.
func BenchmarkMixedSuggest(b *testing.B) {
	samplers := []func() sampler.Sampler{
		func() sampler.Sampler { return cocabo.New() },
		func() sampler.Sampler { return casmopolitan.New() },
		func() sampler.Sampler { return gpbo.NewOneHot() },
	}
	for _, name := range []string{"func3c", "ackley5c", "ackley53", "pest"} {
		p, err := mixed.Get(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{100, 200} {
			for _, mk := range samplers {
				b.Run(fmt.Sprintf("%s/%s/n=%d", mk().Name(), name, n), func(b *testing.B) { benchMixedSuggest(b, p, mk, n) })
			}
		}
	}
}

func benchMixedSuggest(b *testing.B, p *mixed.Problem, mk func() sampler.Sampler, n int) {
	const steps = 10
	sp := p.Space()
	obs := mixedObservations(b, p, n+steps, rand.New(rand.NewPCG(1, 2)))
	suggest := func(s sampler.Sampler, m int) {
		h := &sampler.History{Space: sp, Seed: 1, Trials: m, Observed: obs[:m], Budget: n + steps}
		if _, err := s.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(m)))); err != nil {
			b.Fatal(err)
		}
	}
	var spent time.Duration
	for b.Loop() {
		s := mk()
		suggest(s, n-1)
		start := time.Now()
		for m := n; m < n+steps; m++ {
			suggest(s, m)
		}
		spent += time.Since(start)
	}
	b.ReportMetric(spent.Seconds()/float64(b.N*steps), "s/suggest")
}

// mixedObservations evaluates p at n uniform random points.
func mixedObservations(b *testing.B, p *mixed.Problem, n int, rng *rand.Rand) []sampler.Observation {
	sp := p.Space()
	obs := make([]sampler.Observation, n)
	for i := range obs {
		u := sp.Sample(rng)
		y, err := p.Evaluate(sp.Decode(u), rng)
		if err != nil {
			b.Fatal(err)
		}
		obs[i] = sampler.Observation{X: u, Y: y}
	}
	return obs
}
