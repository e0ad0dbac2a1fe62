// Package tinyml runs the AutoTinyML searches of thesis 004 §8.2 (spec
// constrained-autotinyml §9.3) on the study files of examples/tinyml with
// the analytic accuracy proxy (stand-in b): for each ⟨network, board,
// compression⟩ of Tables 8.2–8.6, 15 runs of 100 evaluations per sampler
// (SVM-CBO_RF, the BOHB-like baseline, gpbo, the penalty-based gpbo, TPE,
// random), the mean ± std of the final incumbent's accuracy, RAM, ROM,
// X-CROSS and MACC, the Mann–Whitney p-value of each sampler against
// BOHB-like on accuracy (Table 8.4's test), and for IR the reductions
// against the baseline network. BOHB-like runs Hyperband over the epochs
// of the proxy's learning curve (tinyml.ProxyAt) with the same number of
// full-budget equivalents. Two modes: "known", boa's (the deploy block
// computes RAM, ROM and X-CROSS before a trial runs, study.Known), and
// "coupled", the thesis's (they are learnt from the evaluations, as
// SVM-CBO's classifier does).
//
//	BOA_REPRO=1 go test ./experiments/tinyml -run TestReproAutoTinyML -v
//
// BOA_SAMPLERS=svmcbo-rf,bohb runs those samplers only, BOA_SETTINGS=har
// the settings whose file starts so, BOA_MODES=known or coupled one mode. Without BOA_REPRO
// it runs 2 runs of 20 evaluations of HAR on the Tiny Board with
// svmcbo-rf, bohb and random search; docs/tinyml.md has the tables.
package tinyml

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	_ "github.com/boaopt/boa/sampler/all"
	"github.com/boaopt/boa/stats"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/tinyml"
)

type setting struct {
	file        string // in examples/tinyml
	compression int
	baseline    tinyml.Network
	published   string // the thesis's SVM-CBO_RF row, for the table
}

var settings = []setting{
	{"har-big.yaml", 1, tinyml.HARBaseline(), "Table 8.2 ×1: 92.44 %, RAM 9.75, ROM 688.30, MACC 269,327"},
	{"har-big.yaml", 4, tinyml.HARBaseline(), "Table 8.2 ×4: 92.93 %, RAM 15.16, ROM 546.31, MACC 784,767"},
	{"har-tiny.yaml", 4, tinyml.HARBaseline(), "Table 8.3 ×4: 88.27 %, RAM 5.17, ROM 44.93, MACC 87,110"},
	{"har-tiny.yaml", 8, tinyml.HARBaseline(), "Table 8.3 ×8: 91.41 %, RAM 5.42, ROM 49.51, MACC 159,714"},
	{"ir-big.yaml", 8, tinyml.IRBaseline(), "Table 8.5: RAM −53.63 %, ROM −86.13 %, MACC −84.47 %"},
	{"ir-tiny.yaml", 8, tinyml.IRBaseline(), "Table 8.6: RAM −93.66 %, ROM −97.63 %, MACC −97.42 %"},
}

// The samplers compared: SVM-CBO_RF, the BOHB-like baseline (spec §6),
// gpbo that models the constraints, the penalty-based constrained BO
// (§6's ablation), boa's TPE and random search.
var allSamplers = []string{"svmcbo-rf", "bohb", "gpbo", "gpbo-penalty", "tpe", "random"}

// standIn is a search's objective (spec §5.7): a training of a network
// for some epochs, whose accuracy after each epoch goes to report (which
// may stop it: a pruned trial), and the test accuracy of a run's
// incumbent. A finished evaluation trains epochs; BOHB-like's Hyperband
// runs over 1, 3, 9, 27 epochs (η = 3, spec §6) and gets as many epochs
// in all as the others spend, so it trains more configurations (the
// thesis: about 300 for a nominal 100).
type standIn struct {
	name   string
	epochs int
	train  func(net tinyml.Network, opt string, seed uint64, epochs int, report func(epoch int, acc float64) (stop bool)) (float64, error)
	test   func(net tinyml.Network, opt string, seed uint64, epochs int, observed float64) (float64, error)
}

// bohbEpochs is BOHB-like's largest budget.
const bohbEpochs = 27

// proxy is stand-in b: a finished evaluation is Proxy's value, a training
// converged after bohbEpochs epochs of its learning curve (tinyml.ProxyAt),
// and the test accuracy is the value observed.
var proxy = standIn{
	name:   "proxy",
	epochs: bohbEpochs,
	train: func(net tinyml.Network, opt string, seed uint64, epochs int, report func(int, float64) bool) (float64, error) {
		for e := 1; ; e++ {
			acc, err := tinyml.ProxyAt(net, opt, seed, e, epochs)
			switch {
			case err != nil || e == epochs:
				return acc, err
			case report(e, acc):
				return acc, errStopped
			}
		}
	},
	test: func(_ tinyml.Network, _ string, _ uint64, _ int, observed float64) (float64, error) {
		return observed, nil
	},
}

// errStopped says a training was stopped by its report.
var errStopped = errors.New("stopped")

// incumbent is a run's final best deployable trial: its accuracy and
// metrics; ok is false when no evaluation was deployable.
type incumbent struct {
	acc     float64
	metrics map[string]float64
	ok      bool
	share   float64 // deployable share of the evaluations that finished
	configs int     // configurations evaluated, at any budget
}

func run(s setting, obj standIn, smp string, known bool, seed uint64, budget int) (incumbent, error) {
	cfg, err := config.Load(filepath.Join("..", "..", "examples", "tinyml", s.file))
	if err != nil {
		return incumbent{}, err
	}
	cfg.Deploy.Compression = s.compression
	if err := cfg.Validate(); err != nil {
		return incumbent{}, err
	}
	spec, err := cfg.Spec()
	if err != nil {
		return incumbent{}, err
	}
	sm, err := sampler.New(smp)
	if err != nil {
		return incumbent{}, err
	}
	bohb, epochs := smp == "bohb", obj.epochs
	o := study.Options{Name: cfg.Name, Direction: study.Maximize, Sampler: sm, Seed: seed, Budget: budget, Constraints: spec.Constraints}
	if bohb {
		o.Budget, o.Pruner, epochs = 0, pruner.Hyperband{MinResource: 1, MaxResource: bohbEpochs, ReductionFactor: 3}, bohbEpochs
	}
	metricsOf := cfg.Deploy.Known()
	if known {
		o.Known = metricsOf
	}
	st, err := study.New(cfg.Space, o)
	if err != nil {
		return incumbent{}, err
	}
	spent := 0 // epochs, in all
	objective := func(ctx context.Context, tr *study.Trial) (float64, error) {
		if !known { // coupled: the metrics come with the evaluation
			maps.Copy(tr.Metrics, metricsOf(tr.Params))
		}
		net, err := cfg.Deploy.Network.Network(tr.Params)
		if err != nil {
			return 0, err
		}
		opt, _ := tr.Params["optimizer"].(string)
		var reportErr error
		acc, err := obj.train(net, opt, seed, epochs, func(e int, acc float64) bool {
			spent++
			if !bohb || e == epochs {
				return false
			}
			if reportErr = tr.Report(ctx, int64(e), acc); reportErr != nil {
				return true
			}
			prune, err := tr.ShouldPrune(ctx)
			reportErr = err
			return prune || err != nil
		})
		switch {
		case reportErr != nil:
			return 0, reportErr
		case errors.Is(err, errStopped):
			return acc, study.ErrPruned
		}
		return acc, err
	}
	ctx := context.Background()
	if bohb {
		for spent < budget*obj.epochs {
			if err := st.Optimize(ctx, objective, 1, study.OptimizeOptions{}); err != nil {
				return incumbent{}, err
			}
		}
	} else if err := st.Optimize(ctx, objective, budget, study.OptimizeOptions{}); err != nil {
		return incumbent{}, err
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		return incumbent{}, err
	}
	feasible, finished := 0, 0 // BOHB's pruned trials did not finish
	for _, tr := range trials {
		if tr.State != study.Pruned {
			finished++
		}
		if tr.State == study.Complete && tr.Feasible != nil && *tr.Feasible {
			feasible++
		}
	}
	best, ok, err := st.Best(ctx)
	if err != nil || !ok {
		return incumbent{share: float64(feasible) / float64(max(finished, 1)), configs: len(trials)}, err
	}
	net, err := cfg.Deploy.Network.Network(best.Params)
	if err != nil {
		return incumbent{}, err
	}
	opt, _ := best.Params["optimizer"].(string)
	acc, err := obj.test(net, opt, seed, epochs, best.Value)
	return incumbent{acc: acc, metrics: best.Metrics, ok: true, share: float64(feasible) / float64(max(finished, 1)), configs: len(trials)}, err
}

func TestReproAutoTinyML(t *testing.T) {
	runs, budget, todo, samplers := 2, 20, settings[3:4], []string{"svmcbo-rf", "bohb", "random"}
	if os.Getenv("BOA_REPRO") == "1" {
		runs, budget, todo, samplers = 15, 100, settings, allSamplers
	}
	if names := os.Getenv("BOA_SAMPLERS"); names != "" { // e.g. svmcbo-rf,bohb
		samplers = strings.Split(names, ",")
	}
	if prefix := os.Getenv("BOA_SETTINGS"); prefix != "" { // e.g. har: the four HAR settings
		todo = slices.DeleteFunc(slices.Clone(todo), func(s setting) bool { return !strings.HasPrefix(s.file, prefix) })
	}
	modes := []bool{true, false}
	switch os.Getenv("BOA_MODES") {
	case "known":
		modes = modes[:1]
	case "coupled":
		modes = modes[1:]
	}
	for _, known := range modes {
		mode := map[bool]string{true: "known", false: "coupled"}[known]
		var table84 strings.Builder // Table 8.4's format: SVM-CBO_RF against BOHB on accuracy
		fmt.Fprintf(&table84, "\nTable 8.4, %s mode: unpaired Mann–Whitney on accuracy (proxy), %d runs of %d\n\n", mode, runs, budget)
		fmt.Fprintln(&table84, "| experiment | SVM-CBO_RF | BOHB-like | p-value | significance |")
		fmt.Fprintln(&table84, "|---|---|---|---|---|")
		for _, s := range todo {
			base, err := tinyml.Analyze(s.baseline, s.compression)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			fmt.Fprintf(&out, "\n%s ×%d, %s mode, %d runs of %d (published SVM-CBO_RF: %s)\n\n", strings.TrimSuffix(s.file, ".yaml"), s.compression, mode, runs, budget, s.published)
			fmt.Fprintln(&out, "| sampler | configurations | deployable incumbents | deployable evaluations | accuracy (proxy) | RAM (kB) | ROM (kB) | X-CROSS | MACC | p (accuracy, vs bohb) | RAM / ROM / MACC against the baseline |")
			fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|---|---|")
			// Every run of the setting, on all cores.
			results := make([][]incumbent, len(samplers))
			for i := range samplers {
				results[i] = make([]incumbent, runs)
			}
			if err := parallel(len(samplers)*runs, func(k int) (err error) {
				i, seed := k/runs, k%runs
				results[i][seed], err = run(s, proxy, samplers[i], known, uint64(seed+1), budget)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			accs := make([][]float64, len(samplers))
			ref := slices.Index(samplers, "bohb")
			for i, smp := range samplers {
				for _, in := range results[i] {
					if in.ok {
						accs[i] = append(accs[i], in.acc)
					}
				}
				if smp == "svmcbo-rf" && len(accs[i]) < runs {
					t.Errorf("%s ×%d, %s: svmcbo-rf ended without a deployable incumbent in %d of %d runs (R5/R6: every run)", s.file, s.compression, mode, runs-len(accs[i]), runs)
				}
			}
			for i, smp := range samplers {
				var ram, rom, xc, macc, share, configs []float64
				for _, in := range results[i] {
					share, configs = append(share, in.share), append(configs, float64(in.configs))
					if in.ok {
						ram, rom = append(ram, in.metrics[config.MetricRAM]/1000), append(rom, in.metrics[config.MetricROM]/1000)
						xc, macc = append(xc, in.metrics[config.MetricXCross]), append(macc, in.metrics[config.MetricMACC])
					}
				}
				p := "—"
				if i != ref && ref >= 0 {
					if _, pv, err := stats.MannWhitneyU(accs[i], accs[ref]); err == nil {
						p = fmt.Sprintf("%.3g %s", pv, stats.Stars(pv))
						if smp == "svmcbo-rf" && strings.HasPrefix(s.file, "har") {
							fmt.Fprintf(&table84, "| %s ×%d | %s | %s | %.3g | %s |\n", strings.TrimSuffix(s.file, ".yaml"), s.compression,
								meanStd(accs[i], "%.3f %%"), meanStd(accs[ref], "%.3f %%"), pv, cmp.Or(stats.Stars(pv), "-"))
						}
					}
				}
				red := func(v []float64, b float64) string { return fmt.Sprintf("%+.2f %%", 100*(stat.Mean(v, nil)-b)/b) }
				reduction := "—"
				if len(ram) > 0 {
					reduction = red(ram, float64(base.RAM)/1000) + " / " + red(rom, float64(base.ROM)/1000) + " / " + red(macc, float64(base.MACC))
				}
				fmt.Fprintf(&out, "| %s | %.0f | %d / %d | %.2f | %s | %s | %s | %s | %s | %s | %s |\n", smp, stat.Mean(configs, nil), len(accs[i]), runs, stat.Mean(share, nil),
					meanStd(accs[i], "%.2f %%"), meanStd(ram, "%.2f"), meanStd(rom, "%.2f"), meanStd(xc, "%.2f %%"), meanStd(macc, "%.0f"), p, reduction)
			}
			t.Log(out.String())
		}
		t.Log(table84.String())
	}
}

// parallel runs f(0), ..., f(n − 1) on all cores and joins their errors.
func parallel(n int, f func(i int) error) error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func meanStd(v []float64, format string) string {
	if len(v) == 0 {
		return "—"
	}
	m, sd := stat.MeanStdDev(v, nil)
	if len(v) < 2 || math.IsNaN(sd) {
		sd = 0
	}
	return fmt.Sprintf(format+" (±"+format+")", m, sd)
}
