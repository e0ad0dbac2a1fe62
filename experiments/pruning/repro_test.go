package pruning

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/pruner"
)

// contender is one pruner of the comparison.
type contender struct {
	name string
	p    pruner.Pruner
}

// contenders builds the compared pruners from Specs, as a study
// configuration would, all with their Optuna defaults.
func contenders(t *testing.T) []contender {
	t.Helper()
	q := 25.0
	out := []contender{{"none (Nop)", pruner.Nop{}}}
	for _, c := range []struct {
		name string
		spec pruner.Spec
	}{
		{"median", pruner.Spec{Type: "median"}},
		{"percentile 25", pruner.Spec{Type: "percentile", Percentile: &q}},
		{"successive_halving", pruner.Spec{Type: "successive_halving"}},
		{"hyperband", pruner.Spec{Type: "hyperband"}},
		// On a validation curve TSE-EMA is an exponentially weighted sum of
		// validation losses (SoVL), not TSE proper, which sums training
		// losses: NMTLC has none (spec tse-and-early-stopping §7). Under an
		// estimator the median compares the latest estimate, not the best so
		// far (Percentile.Latest): a sum of losses only grows, and before
		// that change this row pruned at the first 1–3 checkpoints only.
		{"median on TSE-EMA (= SoVL-EMA here)", pruner.Spec{Type: "median", Estimator: "tse-ema"}},
	} {
		p, err := c.spec.Build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		out = append(out, contender{c.name, p})
	}
	return out
}

// TestReproPruners compares the pruners on the real NMTLC curves of the
// six scratch corpora (doc.go). It runs a small version in every go test
// and the full one with BOA_REPRO=1:
//
//	BOA_REPRO=1 go test ./experiments/pruning -run TestReproPruners -v -timeout 1h
func TestReproPruners(t *testing.T) {
	runs := loadReal(t)
	seeds, n, k := 2, 30, 4
	if os.Getenv("BOA_REPRO") == "1" {
		seeds, n = 20, 100
	}
	cs := contenders(t)
	names, groups := ByCorpus(runs)
	names = slices.DeleteFunc(names, func(s string) bool { return !strings.HasPrefix(s, "scratch/") })
	if len(names) != 6 {
		t.Fatalf("scratch corpora %q, want six", names)
	}

	// Every (corpus, seed, pruner) study is independent and the pruners
	// keep no state, so the studies run on all cores; results go to fixed
	// slots, so the tables do not depend on the scheduling.
	type job struct{ corpus, seed, pruner int }
	results := make([][][]Result, len(names))
	traces := make([][]Trace, len(names))
	var jobs []job
	for c, name := range names {
		traces[c] = Traces(groups[name])
		results[c] = make([][]Result, len(cs))
		for p := range cs {
			results[c][p] = make([]Result, seeds)
			for s := range seeds {
				jobs = append(jobs, job{c, s, p})
			}
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	next := make(chan job)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range next {
				// Seed s+1 for every pruner: all pruners see the same n runs in
				// the same order, so the comparison is paired.
				cfg := Config{Trials: n, Workers: k, Seed: uint64(j.seed + 1)}
				r, err := Simulate(traces[j.corpus], cs[j.pruner].p, cfg)
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s, %s, seed %d: %w", names[j.corpus], cs[j.pruner].name, cfg.Seed, err))
					mu.Unlock()
				}
				results[j.corpus][j.pruner][j.seed] = r
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	t.Logf("%d studies (%d corpora × %d pruners × %d seeds, n = %d, k = %d) in %v on %d cores",
		len(jobs), len(names), len(cs), seeds, n, k, time.Since(start).Round(time.Millisecond), runtime.GOMAXPROCS(0))

	for c, name := range names {
		none := results[c][0]
		full, oracle := make([]float64, seeds), make([]float64, seeds)
		for s, r := range none {
			if r.Cost != r.FullCost || r.Regret != 0 {
				t.Errorf("%s seed %d: no pruning cost %d of %d with regret %v", name, s+1, r.Cost, r.FullCost, r.Regret)
			}
			full[s], oracle[s] = float64(r.FullCost), r.Oracle
		}
		fmt.Printf("\n%s (%d runs; n = %d drawn per study, k = %d workers, %d seeds; no-pruning cost median %.0f checkpoints, best-of-n perplexity median %.3f)\n\n",
			name, len(groups[name]), n, k, seeds, bench.Median(full), bench.Median(oracle))
		fmt.Println("| pruner | cost / no-pruning cost (median) | regret, perplexity (median) | best run of the n kept |")
		fmt.Println("|---|---|---|---|")
		for p, cont := range cs {
			frac, regret, kept := make([]float64, seeds), make([]float64, seeds), 0
			for s, r := range results[c][p] {
				if r.Cost > r.FullCost {
					t.Errorf("%s, %s, seed %d: cost %d above the full %d", name, cont.name, s+1, r.Cost, r.FullCost)
				}
				frac[s], regret[s] = float64(r.Cost)/float64(r.FullCost), r.Regret
				if r.KeptBest() {
					kept++
				}
			}
			fmt.Printf("| %s | %.3f | %.3f | %.0f%% (%d/%d) |\n", cont.name, bench.Median(frac), bench.Median(regret),
				100*float64(kept)/float64(seeds), kept, seeds)
		}
	}
}
