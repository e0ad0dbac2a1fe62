// Package tinyml runs the AutoTinyML searches of thesis 004 §8.2 (spec
// constrained-autotinyml §9.3) on the study files of examples/tinyml with
// the analytic accuracy proxy (stand-in b): for each ⟨network, board,
// compression⟩ of Tables 8.2–8.6, 15 runs of 100 evaluations per sampler,
// and the mean ± std of the final incumbent's accuracy, RAM, ROM, X-CROSS
// and MACC, the Mann–Whitney p-value of each sampler against SVM-CBO_RF
// on accuracy, and for IR the reductions against the baseline network.
// Two modes: "known", boa's (the deploy block computes RAM, ROM and
// X-CROSS before a trial runs, study.Known), and "coupled", the thesis's
// (they are learnt from the evaluations, as SVM-CBO's classifier does).
//
//	BOA_REPRO=1 go test ./experiments/tinyml -run TestReproAutoTinyML -v
//
// Without BOA_REPRO it runs 2 runs of 20 evaluations of HAR on the Tiny
// Board with svmcbo-rf and random search; docs/tinyml.md has the tables.
package tinyml

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/boaopt/boa/config"
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

var allSamplers = []string{"svmcbo-rf", "gpbo", "tpe", "random"}

// incumbent is a run's final best deployable trial: its accuracy and
// metrics; ok is false when no evaluation was deployable.
type incumbent struct {
	acc     float64
	metrics map[string]float64
	ok      bool
	share   float64 // deployable share of the evaluations
}

func run(s setting, smp string, known bool, seed uint64, budget int) (incumbent, error) {
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
	o := study.Options{Name: cfg.Name, Direction: study.Maximize, Sampler: sm, Seed: seed, Budget: budget, Constraints: spec.Constraints}
	metricsOf := cfg.Deploy.Known()
	if known {
		o.Known = metricsOf
	}
	st, err := study.New(cfg.Space, o)
	if err != nil {
		return incumbent{}, err
	}
	objective := func(_ context.Context, tr *study.Trial) (float64, error) {
		if !known { // coupled: the metrics come with the evaluation
			maps.Copy(tr.Metrics, metricsOf(tr.Params))
		}
		return cfg.Deploy.Proxy(tr.Params, seed)
	}
	ctx := context.Background()
	if err := st.Optimize(ctx, objective, budget, study.OptimizeOptions{}); err != nil {
		return incumbent{}, err
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		return incumbent{}, err
	}
	feasible := 0
	for _, tr := range trials {
		if tr.State == study.Complete && tr.Feasible != nil && *tr.Feasible {
			feasible++
		}
	}
	best, ok, err := st.Best(ctx)
	if err != nil {
		return incumbent{}, err
	}
	return incumbent{acc: best.Value, metrics: best.Metrics, ok: ok, share: float64(feasible) / float64(len(trials))}, nil
}

func TestReproAutoTinyML(t *testing.T) {
	runs, budget, todo, samplers := 2, 20, settings[3:4], []string{"svmcbo-rf", "random"}
	if os.Getenv("BOA_REPRO") == "1" {
		runs, budget, todo, samplers = 15, 100, settings, allSamplers
	}
	for _, known := range []bool{true, false} {
		mode := map[bool]string{true: "known", false: "coupled"}[known]
		for _, s := range todo {
			base, err := tinyml.Analyze(s.baseline, s.compression)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			fmt.Fprintf(&out, "\n%s ×%d, %s mode, %d runs of %d (published SVM-CBO_RF: %s)\n\n", strings.TrimSuffix(s.file, ".yaml"), s.compression, mode, runs, budget, s.published)
			fmt.Fprintln(&out, "| sampler | deployable incumbents | deployable evaluations | accuracy (proxy) | RAM (kB) | ROM (kB) | X-CROSS | MACC | p (accuracy, vs svmcbo-rf) | RAM / ROM / MACC against the baseline |")
			fmt.Fprintln(&out, "|---|---|---|---|---|---|---|---|---|---|")
			// Every run of the setting, on all cores.
			results := make([][]incumbent, len(samplers))
			errs := make([]error, len(samplers)*runs)
			var wg sync.WaitGroup
			sem := make(chan struct{}, runtime.GOMAXPROCS(0))
			for i, smp := range samplers {
				results[i] = make([]incumbent, runs)
				for seed := range runs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						sem <- struct{}{}
						defer func() { <-sem }()
						results[i][seed], errs[i*runs+seed] = run(s, smp, known, uint64(seed+1), budget)
					}()
				}
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			var ref []float64
			for i, smp := range samplers {
				var acc, ram, rom, xc, macc, share []float64
				for _, in := range results[i] {
					share = append(share, in.share)
					if !in.ok {
						continue
					}
					acc = append(acc, in.acc)
					ram, rom = append(ram, in.metrics[config.MetricRAM]/1000), append(rom, in.metrics[config.MetricROM]/1000)
					xc, macc = append(xc, in.metrics[config.MetricXCross]), append(macc, in.metrics[config.MetricMACC])
				}
				if smp == "svmcbo-rf" {
					ref = acc
					if len(acc) < runs {
						t.Errorf("%s ×%d, %s: svmcbo-rf ended without a deployable incumbent in %d of %d runs (R5/R6: every run)", s.file, s.compression, mode, runs-len(acc), runs)
					}
				}
				p := "—"
				if smp != "svmcbo-rf" && len(acc) > 0 && len(ref) > 0 {
					if _, pv, err := stats.MannWhitneyU(ref, acc); err == nil {
						p = fmt.Sprintf("%.3g %s", pv, stats.Stars(pv))
					}
				}
				red := func(v []float64, b float64) string { return fmt.Sprintf("%+.2f %%", 100*(stat.Mean(v, nil)-b)/b) }
				reduction := "—"
				if len(acc) > 0 {
					reduction = red(ram, float64(base.RAM)/1000) + " / " + red(rom, float64(base.ROM)/1000) + " / " + red(macc, float64(base.MACC))
				}
				fmt.Fprintf(&out, "| %s | %d / %d | %.2f | %s | %s | %s | %s | %s | %s | %s |\n", smp, len(acc), runs, stat.Mean(share, nil),
					meanStd(acc, "%.2f %%"), meanStd(ram, "%.2f"), meanStd(rom, "%.2f"), meanStd(xc, "%.2f %%"), meanStd(macc, "%.0f"), p, reduction)
			}
			t.Log(out.String())
		}
	}
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
