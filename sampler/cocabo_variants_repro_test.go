package sampler_test

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
	"os"
	"testing"

	"github.com/boaopt/boa/bench/mixed"
	"github.com/boaopt/boa/sampler"
)

func TestReproAckley5CVariants(t *testing.T) {
	if os.Getenv("BOA_REPRO") != "1" {
		t.Skip("set BOA_REPRO=1 to run the Ackley-5C variants (long)")
	}
	seeds := envInt("BOA_SEEDS", 10)
	budget := envInt("BOA_BUDGET", 200)
	p, err := mixed.Get("ackley5c")
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name string
		make func() sampler.Sampler
	}{
		{`Reward: "data" (spec §4.1 Decision)`, func() sampler.Sampler {
			c := sampler.NewCoCaBO()
			c.Reward = sampler.CoCaBORewardData
			return c
		}},
		{"Budget 2000 (γ = 0.15)", func() sampler.Sampler {
			c := sampler.NewCoCaBO()
			c.Budget = 2000
			return c
		}},
		{"7 initial points", func() sampler.Sampler {
			c := sampler.NewCoCaBO()
			c.InitPoints = 7
			return c
		}},
		{"Copula (auto's setting)", func() sampler.Sampler {
			c := sampler.NewCoCaBO()
			c.Copula = true
			return c
		}},
		{"onehot-gp, isotropic kernel", func() sampler.Sampler {
			o := sampler.NewOneHotGP()
			o.ARD = false
			return o
		}},
		{"onehot-gp fitted by MLE, as CoCaBO is", func() sampler.Sampler {
			o := sampler.NewOneHotGP()
			o.MLE = true
			return o
		}},
		{"onehot-gp fitted by MLE with 5 starts every 10 iterations, as 000 §5.5 fits both", func() sampler.Sampler {
			o := sampler.NewOneHotGP()
			o.MLE, o.Restarts, o.RefitEvery = true, 5, 10
			return o
		}},
		{"onehot-gp, isotropic kernel, fitted by MLE", func() sampler.Sampler {
			o := sampler.NewOneHotGP()
			o.ARD, o.MLE = false, true
			return o
		}},
		{"One-hot BO as GPyOpt ran it (rounding after relaxed L-BFGS)", func() sampler.Sampler { return sampler.NewGPyOptOneHot(1) }},
		{"the same with GPyOpt's model_update_interval = 10", func() sampler.Sampler { return sampler.NewGPyOptOneHot(10) }},
	}
	for _, v := range variants {
		final := make([]float64, seeds)
		sampler.ParallelSeeds(seeds, func(seed int) {
			trace, _ := runSampler(t, p, v.make(), uint64(seed), budget)
			final[seed-1] = trace[budget-1]
		})
		line := fmt.Sprintf("| %s | %.4g |", v.name, median(final))
		t.Log(line, final)
		fmt.Println(line)
	}
}
