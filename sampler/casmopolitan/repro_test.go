package casmopolitan_test

// CASMOPOLITAN on the problems of seed 000 §5.6.4 (issue 5, item 5; mixed
// spec §7.5). The full protocol runs only with BOA_REPRO=1:
//
//	BOA_REPRO=1 BOA_SEEDS=10 go test ./sampler -run TestReproCasmopolitan -v -timeout 6h
//
// BOA_SEEDS (default 10), BOA_BUDGET (default 150) and BOA_PROBLEMS (a
// comma-separated subset) change the protocol. The measured table is
// recorded in docs/casmopolitan.md.

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	_ "github.com/boaopt/boa/sampler/all"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/casmopolitan"
	"github.com/boaopt/boa/sampler/cocabo"
	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// casmoRun runs sampler name on p for budget evaluations with init
// initial points and returns the best value after each evaluation and the
// time spent in Suggest.
func casmoRun(t testing.TB, p *mixed.Problem, name string, seed uint64, budget, init int) ([]float64, time.Duration) {
	t.Helper()
	if slices.Contains(peers.Names(), name) {
		if ok, why := peers.Available(name); !ok {
			t.Skipf("%s: %s", name, why)
		}
		sess, err := peers.New(context.Background(), name, p.Space(), seed)
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		return samplertest.RunSession(t, p, name, sess, seed, budget)
	}
	var s sampler.Sampler
	if name == casmoGlobal {
		c := casmopolitan.New()
		c.LhInit, c.LxInit, c.LxMax, c.FailTol = 1<<20, 1e3, 1e3, 1<<30
		s = c
	} else {
		var err error
		if s, err = sampler.New(name); err != nil {
			t.Fatal(err)
		}
	}
	switch s := s.(type) {
	case *casmopolitan.Casmopolitan:
		s.InitPoints = init
	case *cocabo.CoCaBO:
		s.InitPoints = init
	case *gpbo.OneHotGP:
		s.InitPoints = init
	}
	return samplertest.RunSampler(t, p, s, seed, budget)
}

// casmoGlobal names the ablation's "NewCatKer" [000 §5.6.4, Fig. 5.9]:
// CASMOPOLITAN's kernel, GP and acquisition search with a trust region that
// covers the whole space and never shrinks (radius d_h, box side 10³,
// FailTol 2³⁰), i.e. a global GP. Run it on DifficultPest with
//
//	BOA_REPRO=1 BOA_PROBLEMS=difficultpest BOA_SAMPLERS=casmopolitan,casmopolitan-global go test ./sampler -run TestReproCasmopolitan -v -timeout 6h
const casmoGlobal = "casmopolitan-global"

// TestCasmopolitanPestSmoke is the CI check of spec §7.6: CASMOPOLITAN on
// Pest Control, 2 seeds, T = 40, against random search's median.
func TestCasmopolitanPestSmoke(t *testing.T) {
	p, err := mixed.Get("pest")
	if err != nil {
		t.Fatal(err)
	}
	const budget, init = 40, 20
	var casmo, random []float64
	for seed := uint64(1); seed <= 2; seed++ {
		c, _ := casmoRun(t, p, "casmopolitan", seed, budget, init)
		r, _ := casmoRun(t, p, "random", seed, budget, init)
		casmo, random = append(casmo, c[budget-1]), append(random, r[budget-1])
	}
	t.Logf("pest, T = %d: casmopolitan %v (median %.4g), random %v (median %.4g)", budget, casmo, samplertest.Median(casmo), random, samplertest.Median(random))
	if samplertest.Median(casmo) >= samplertest.Median(random) {
		t.Errorf("casmopolitan's median best %.4g does not beat random's %.4g", samplertest.Median(casmo), samplertest.Median(random))
	}
}

// TestReproCasmopolitan runs casmopolitan, cocabo, onehot-gp, random and
// goptuna-tpe on Ackley-53, Pest Control, Contamination and MaxSAT-60 (raw
// weights) with budget 150 and 20 initial points (spec §5.7 Decision;
// goptuna-tpe keeps its own 10), and prints the median best value of each
// at T = 50, 100 and 150 over the seeds.
func TestReproCasmopolitan(t *testing.T) {
	samplertest.NeedRepro(t, "run the CASMOPOLITAN reproduction (long)")
	seeds := samplertest.EnvInt("BOA_SEEDS", 10)
	budget := samplertest.EnvInt("BOA_BUDGET", 150)
	const init = 20
	problems := []string{"ackley53", "pest", "contamination", "maxsat60"}
	if v := os.Getenv("BOA_PROBLEMS"); v != "" {
		problems = strings.Split(v, ",")
	}
	samplers := []string{"casmopolitan", "cocabo", "onehot-gp", "random", "goptuna-tpe"}
	if v := os.Getenv("BOA_SAMPLERS"); v != "" {
		samplers = strings.Split(v, ",")
	}
	var out strings.Builder
	fmt.Fprintf(&out, "budget %d, %d initial points, seeds 1..%d; median (and mean ± s.e.) of the best value found; minimised\n\n", budget, init, seeds)
	fmt.Fprintf(&out, "| problem | f* | sampler | T = 50 | T = 100 | T = %d | mean ± s.e. at T = %d | s/suggest |\n|---|---|---|---|---|---|---|---|\n", budget, budget)
	for _, name := range problems {
		p, err := mixed.Get(name)
		if err != nil {
			t.Logf("skipping %s: %v", name, err)
			continue
		}
		fstar := "?"
		if f, ok := p.Optimum(); ok {
			fstar = strconv.FormatFloat(f, 'g', 6, 64)
		}
		for _, sn := range samplers {
			traces := make([][]float64, seeds)
			times := make([]time.Duration, seeds)
			samplertest.ParallelSeeds(seeds, func(seed int) {
				traces[seed-1], times[seed-1] = casmoRun(t, p, sn, uint64(seed), budget, init)
			})
			at := func(T int) []float64 {
				v := make([]float64, seeds)
				for s, tr := range traces {
					v[s] = tr[min(T, budget)-1]
				}
				return v
			}
			final := at(budget)
			mean, se := samplertest.MeanSE(final)
			var total time.Duration
			for _, d := range times {
				total += d
			}
			line := fmt.Sprintf("| %s | %s | %s | %.5g | %.5g | %.5g | %.5g ± %.2g | %.3f |\n", name, fstar, sn,
				samplertest.Median(at(50)), samplertest.Median(at(100)), samplertest.Median(final), mean, se, total.Seconds()/float64(seeds*budget))
			out.WriteString(line)
			t.Log(strings.TrimSpace(line))
		}
	}
	fmt.Println(out.String())
}
