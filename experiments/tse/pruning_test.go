package tse

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/experiments/pruning"
	"github.com/boaopt/boa/pruner"
)

// contender is one contender of TestReproTSEPruning: a pruner and the curve
// its trials report, one value per epoch, lower better.
type contender struct {
	name   string
	spec   pruner.Spec
	report func(Epoch) float64
}

func valLoss(e Epoch) float64   { return e.ValLoss }
func valError(e Epoch) float64  { return 1 - e.ValAcc }
func trainLoss(e Epoch) float64 { return e.TrainLoss }

// prunings are the contenders, every pruner with Optuna's defaults: no
// pruning, the plain median and successive halving on validation values,
// and the TSE-aware pruners of spec §9.5, which compare an estimator of
// the training-loss curve. Under an estimator the median compares the
// latest estimate, not the best so far (pruner.Percentile.Latest).
//
// Two more compare at about equal cost: the median on the validation loss
// with 5 warm-up epochs prunes less, the 35th percentile on TSE-EMA more.
func contenders() []contender {
	e1, q35, warm5 := 1, 35.0, int64(5)
	return []contender{
		{"none", pruner.Spec{Type: "none"}, valLoss},
		{"median, validation loss", pruner.Spec{Type: "median"}, valLoss},
		{"median, validation error", pruner.Spec{Type: "median"}, valError},
		{"successive_halving, validation loss", pruner.Spec{Type: "successive_halving"}, valLoss},
		{"median, TSE-EMA (γ=0.999) of training loss", pruner.Spec{Type: "median", Estimator: "tse-ema"}, trainLoss},
		{"median, TSE-E (E=1) of training loss", pruner.Spec{Type: "median", Estimator: "tse-e", E: &e1}, trainLoss},
		{"successive_halving, TSE-EMA (γ=0.999) of training loss", pruner.Spec{Type: "successive_halving", Estimator: "tse-ema"}, trainLoss},
		{"median with 5 warm-up epochs, validation loss", pruner.Spec{Type: "median", NWarmupSteps: &warm5}, valLoss},
		{"percentile 35, TSE-EMA (γ=0.999) of training loss", pruner.Spec{Type: "percentile", Percentile: &q35, Estimator: "tse-ema"}, trainLoss},
	}
}

// TestReproTSEPruning measures TSE-aware pruning (spec §9.5) on the §8
// stand-in: each architecture of the FullProtocol (300 cells, T_end = 50
// epochs) is trained once, with the first seed, and pruned studies are
// replayed on the recorded curves with pruning.Simulate: n = 100
// architectures drawn per study, k = 4 asynchronous workers, 20 seeds,
// every contender on the same draws. A trial reports its contender's curve
// one epoch at a time; a completed trial is worth its own run's test error
// (1 − test accuracy), and the study's result is the best completed trial.
// The table gives, per contender, the epochs trained against the epochs
// without pruning (n·T_end), the regret in test error against the best of
// the n drawn architectures, the share of seeds whose study completed a
// trial as good as that best one (ties count: test accuracy is a count of
// 360 images), and the test error of the best completed trial; medians
// over the seeds. A small version (16 architectures, 8 epochs, n = 12,
// 2 seeds) runs in every go test and checks only the bookkeeping; the full
// one, which trains for about 2 minutes on 2 cores, with
//
//	BOA_REPRO=1 go test ./experiments/tse -run TestReproTSEPruning -v -timeout 1h
func TestReproTSEPruning(t *testing.T) {
	sp := loadSplit(t)
	p := FullProtocol()
	p.Seeds = 1
	n, k, seeds := 100, 4, 20
	if os.Getenv("BOA_REPRO") != "1" {
		p.N, p.Config.Epochs = 16, 8
		n, seeds = 12, 2
	}
	res := Experiment(sp, p)

	cs := contenders()
	traces := make([][]pruning.Trace, len(cs)) // [contender][architecture]
	for c, cont := range cs {
		traces[c] = make([]pruning.Trace, len(res.Runs))
		for i, runs := range res.Runs {
			r := runs[0]
			tr := pruning.Trace{Curve: make([]float64, len(r.Epochs)), Quality: 1 - r.TestAcc}
			for e, ep := range r.Epochs {
				tr.Curve[e] = cont.report(ep)
			}
			traces[c][i] = tr
		}
	}
	pruners := make([]pruner.Pruner, len(cs))
	for c, cont := range cs {
		pr, err := cont.spec.Build()
		if err != nil {
			t.Fatalf("%s: %v", cont.name, err)
		}
		pruners[c] = pr
	}

	// The studies are independent and the pruners keep no state, so they
	// run on all cores into fixed slots. Seed s+1 for every contender: all
	// draw the same n architectures in the same order (the draw depends on
	// the seed and the number of traces only).
	start := time.Now()
	results := make([][]pruning.Result, len(cs))
	for c := range results {
		results[c] = make([]pruning.Result, seeds)
	}
	type job struct{ c, s int }
	next := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range next {
				cfg := pruning.Config{Trials: n, Workers: k, Seed: uint64(j.s + 1), Name: "tse"}
				r, err := pruning.Simulate(traces[j.c], pruners[j.c], cfg)
				if err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("%s, seed %d: %w", cs[j.c].name, cfg.Seed, err))
					mu.Unlock()
				}
				results[j.c][j.s] = r
			}
		})
	}
	for c := range cs {
		for s := range seeds {
			next <- job{c, s}
		}
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	t.Logf("trained %d architectures × %d epochs in %.0f s on %d workers; %d studies replayed in %v",
		p.N, p.Config.Epochs, res.Wall, res.Workers, len(cs)*seeds, time.Since(start).Round(time.Millisecond))

	full, oracle := make([]float64, seeds), make([]float64, seeds)
	for s, r := range results[0] {
		if r.Cost != r.FullCost || r.FullCost != n*p.Config.Epochs || r.Completed != n || r.Regret != 0 {
			t.Errorf("seed %d without pruning: %+v, want all %d trials complete, %d epochs, no regret", s+1, r, n, n*p.Config.Epochs)
		}
		full[s], oracle[s] = float64(r.FullCost), r.Oracle
	}
	fmt.Printf("\nTSE-aware pruning on digits (%d architectures trained once for %d epochs; n = %d drawn per study, k = %d workers, %d seeds; without pruning %.0f epochs, best-of-n test error median %.4f)\n\n",
		p.N, p.Config.Epochs, n, k, seeds, bench.Median(full), bench.Median(oracle))
	fmt.Println("| contender | epochs trained / epochs without pruning (median) | regret, test error (median) | best of the n kept | test error of the best completed trial (median) |")
	fmt.Println("|---|---|---|---|---|")
	for c, cont := range cs {
		frac, regret, best, kept := make([]float64, seeds), make([]float64, seeds), make([]float64, seeds), 0
		for s, r := range results[c] {
			if r.Cost > r.FullCost || r.Oracle != oracle[s] || r.Completed+r.Pruned != n || !(r.Regret >= 0) {
				t.Errorf("%s, seed %d: %+v (oracle without pruning %v)", cont.name, s+1, r, oracle[s])
			}
			frac[s], regret[s], best[s] = float64(r.Cost)/float64(r.FullCost), r.Regret, r.Best
			if r.KeptBest() {
				kept++
			}
		}
		fmt.Printf("| %s | %.3f | %.4f | %.0f%% (%d/%d) | %.4f |\n", cont.name, bench.Median(frac), bench.Median(regret),
			100*float64(kept)/float64(seeds), kept, seeds, bench.Median(best))
	}
}
