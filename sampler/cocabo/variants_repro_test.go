package cocabo_test

// CoCaBO variants, one-hot GPs fitted otherwise and a rebuild of GPyOpt's
// One-hot BO on Ackley-5C (docs/cocabo.md, "Why Ackley-5C goes the other
// way"); the shipped samplers' rows come from boa bench. The full protocol
// runs only with BOA_REPRO=1:
//
//	BOA_REPRO=1 go test ./sampler -run TestReproAckley5CVariants -v -timeout 3h
//
// BOA_SEEDS (default 10) and BOA_BUDGET (default 200) change it.

import (
	"fmt"
	"testing"

	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

func TestReproAckley5CVariants(t *testing.T) {
	samplertest.NeedRepro(t, "run the Ackley-5C variants (long)")
	seeds := samplertest.EnvInt("BOA_SEEDS", 10)
	budget := samplertest.EnvInt("BOA_BUDGET", 200)
	p, err := mixed.Get("ackley5c")
	if err != nil {
		t.Fatal(err)
	}
	// cocabo and onehot return a constructor of the sampler with set applied.
	coca := func(set func(*cocabo.CoCaBO)) func() sampler.Sampler {
		return func() sampler.Sampler { c := cocabo.New(); set(c); return c }
	}
	onehot := func(set func(*gpbo.OneHotGP)) func() sampler.Sampler {
		return func() sampler.Sampler { o := gpbo.NewOneHot(); set(o); return o }
	}
	variants := []struct {
		name string
		make func() sampler.Sampler
	}{
		{`Reward: "data" (spec §4.1 Decision)`, coca(func(c *cocabo.CoCaBO) { c.Reward = cocabo.CoCaBORewardData })},
		{"Budget 2000 (γ = 0.15)", coca(func(c *cocabo.CoCaBO) { c.Budget = 2000 })},
		{"7 initial points", coca(func(c *cocabo.CoCaBO) { c.InitPoints = 7 })},
		{"Copula (auto's setting)", coca(func(c *cocabo.CoCaBO) { c.Copula = true })},
		{"onehot-gp, isotropic kernel", onehot(func(o *gpbo.OneHotGP) { o.ARD = false })},
		{"onehot-gp fitted by MLE, as CoCaBO is", onehot(func(o *gpbo.OneHotGP) { o.MLE = true })},
		{"onehot-gp fitted by MLE with 5 starts every 10 iterations, as 000 §5.5 fits both", onehot(func(o *gpbo.OneHotGP) {
			o.MLE, o.Restarts, o.RefitEvery = true, 5, 10
		})},
		{"onehot-gp, isotropic kernel, fitted by MLE", onehot(func(o *gpbo.OneHotGP) { o.ARD, o.MLE = false, true })},
		{"One-hot BO as GPyOpt ran it (rounding after relaxed L-BFGS)", func() sampler.Sampler { return NewGPyOptOneHot(1) }},
		{"the same with GPyOpt's model_update_interval = 10", func() sampler.Sampler { return NewGPyOptOneHot(10) }},
	}
	for _, v := range variants {
		final := make([]float64, seeds)
		samplertest.ParallelSeeds(seeds, func(seed int) {
			trace, _ := samplertest.RunSampler(t, p, v.make(), uint64(seed), budget)
			final[seed-1] = trace[budget-1]
		})
		line := fmt.Sprintf("| %s | %.4g |", v.name, samplertest.Median(final))
		t.Log(line, final)
		fmt.Println(line)
	}
}
