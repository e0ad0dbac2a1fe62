package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/bench"
	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/problems"
)

func benchCmd() *cobra.Command {
	var (
		problemNames, samplers, tables []string
		seeds, budget, batch, par      int
		workers                        int
		out                            string
		asJSON, noisy, multifidelity   bool
	)
	cmd := &cobra.Command{
		Use:   "bench --problems P1,P2 --samplers S1,S2 --seeds N --budget B [--out DIR] [--json]",
		Short: "Benchmark samplers and peers side by side",
		Long: "Runs every sampler on every problem for seeds 1..N with B evaluations each, in parallel\n" +
			"over the machine's cores, and reports per problem the median and IQR of regret (or of the\n" +
			"best value), mean rank, wins and suggestion time.\n\n" +
			"Problems: test functions (branin, ackley:5, ...), BBOB instances bbob:F:D:I, the mixed\n" +
			"problems of the CoCaBO and CASMOPOLITAN papers (func3c, pest, ...), jenatton (a conditional\n" +
			"space), GKLS functions gkls:D:simple|hard:N, and tables given with --table nb201:PATH,\n" +
			"hpobench:PATH or fcnet:PATH. Constrained problems: branin_c, rosenbrock_c, michalewicz_c,\n" +
			"mishra_bird_c, gramacy_c, alpine2_c (and _literal forms), mishra_bird_c_disc, toy1, toy2,\n" +
			"gkls-c:D:simple|hard:N (a stand-in) and nb201-latency:DEVICE:L[:coupled|:decoupled]\n" +
			"(../shared/data or BOA_DATA_DIR); for them the regret is the feasible regret (the best\n" +
			"feasible evaluation's) and the share of feasible evaluations is reported.\n" +
			"Multi-objective problems: zdt1, zdt2, zdt3 (30 variables; zdt1:10 for 10), dtlz2 (three objectives,\n" +
			"12 variables) and nb201-acc-latency[:DEVICE] (NAS-Bench-201 CIFAR-10 validation error against the\n" +
			"latency on a device, pixel2 by default; ../shared/data or BOA_DATA_DIR). A run is scored by the\n" +
			"hypervolume of the Pareto front of its evaluations against the true front's: the hypervolume gap\n" +
			"(the front's less the run's) is ranked, and the hypervolume, its ratio to the front's and log10 of\n" +
			"the gap are reported (docs/multiobjective.md). Their runs evaluate one configuration at a time;\n" +
			"the peers for them are optuna-nsga2, optuna-motpe and optuna-random.\n" +
			"Real tuning tasks: sklearn:MODEL:DATASET[:METRIC] (sklearn:svm:digits, docs/real-tasks.md); sklearn-suite\nstands for the real-task suite, sklearn-extra for the tasks kept out of it.\n" +
			"A study file whose objective is a built-in function is a problem too (examples/tinyml/har-tiny.yaml):\n" +
			"its constraints apply, and its deploy block's metrics are known to boa's studies, not to the peers.\n" +
			"Samplers: " + strings.Join(bench.Optimizers(), ", ") + " (a peer that is not installed is skipped with a message).\n" +
			"A boa sampler's name may end in +log or +copula: its study fits the model to the log or the\n" +
			"copula transform of the values (gpbo+log); and in +key=value options, those of a study\n" +
			"file's sampler mapping (gpbo+acquisition=fitbo+samples=20, docs/infotheoretic.md).\n\n" +
			"With --multifidelity the problems train: nb201-mf:cifar10 and nb201-mf:cifar100 (NAS-Bench-201\n" +
			"at 12 and 200 epochs) and lcbench:TASK (LCBench, epochs 1-52). Every trial reports after each\n" +
			"epoch (or rung) and the method's pruner may stop it; --budget counts epochs summed over the\n" +
			"trials (default 20 full trainings), and the figure is the regret (NB201: test regret) of the\n" +
			"best complete trial at the budget. A method is SAMPLER[@none|@asha|@hyperband] (defaults:\n" +
			"mobster@asha, bohb@hyperband, random@hyperband, others @none) or optuna-tpe-hb, Optuna's TPE\n" +
			"with its HyperbandPruner; --workers runs trials at once on a simulated clock (docs/multifidelity.md).\n\n" +
			"Runs go problem by problem and, within a problem, seed by seed, every sampler in turn.\n" +
			"Ctrl-C stops the benchmark: the runs that finished, if any, are reported (and written with\n" +
			"--out) and the exit status is 1, as it is when every run failed.",
		Example: "  boa bench --problems branin,hartmann6,ackley:5 --samplers gpbo,random,goptuna-tpe --seeds 10 --budget 60 --out bench-out\n" +
			"  boa bench --table nb201:../shared/data/nb201/cifar10.csv --noisy --samplers random,gpbo --seeds 10 --budget 100 --json\n" +
			"  boa bench --problems func3c --samplers cocabo-auto,onehot-gp,random --seeds 10 --budget 344 --batch 4\n" +
			"  boa bench --problems func3c,ackley5c --samplers cocabo-auto,casmopolitan --seeds 10 --budget 200 --workers 4\n" +
			"  boa bench --problems rosenbrock:10,levy:10 --samplers gpbo,gpbo+log,gpbo+copula --seeds 10 --budget 60\n" +
			"  boa bench --problems branin_c,nb201-latency:pixel2:18 --samplers smac-like,random,optuna-tpe-c --seeds 10 --budget 100\n" +
			"  boa bench --problems zdt1,zdt2,dtlz2,nb201-acc-latency:pixel2 --samplers mobo,nsga2,random,optuna-nsga2,optuna-motpe --seeds 10 --budget 100\n" +
			"  boa bench --problems examples/tinyml/har-tiny.yaml --samplers svmcbo-rf,gpbo,gpbo-penalty,random --seeds 15 --budget 100\n" +
			"  boa bench --multifidelity --problems nb201-mf:cifar10,lcbench:3945 --samplers mobster,bohb,gpbo,random,optuna-tpe-hb --seeds 10\n" +
			"  boa bench latency --n 100,500,1000,2000 --dim 10 --samplers gpbo,goptuna-tpe",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			stderr := cmd.ErrOrStderr()
			if multifidelity {
				if len(tables) > 0 || noisy || batch > 1 {
					return errors.New("--multifidelity takes --problems (nb201-mf:..., lcbench:...), not --table, --noisy or --batch")
				}
				if !cmd.Flags().Changed("budget") {
					budget = 0 // bench.BudgetFactor full trainings
				}
				if !cmd.Flags().Changed("samplers") {
					samplers = []string{"mobster", "bohb", "gpbo", "random", "optuna-tpe-hb"}
				}
				cfg := bench.FidelityConfig{Methods: samplers, Seeds: seeds, Budget: budget, Workers: workers, Parallel: par}
				return runMultiFidelity(ctx, cmd, cfg, problemNames, out, asJSON)
			}
			var ps []problems.Problem
			for _, spec := range problems.Expand(problemNames) {
				p, err := parseProblem(spec)
				if errors.Is(err, problems.ErrNoData) {
					// Third-party data is not shipped (spec mixed §6.6).
					fmt.Fprintf(stderr, "skipping %s: %v\n", spec, err)
					continue
				}
				if err != nil {
					return err
				}
				ps = append(ps, p)
			}
			for _, spec := range tables {
				p, err := problems.Table(spec, noisy)
				if err != nil {
					return err
				}
				ps = append(ps, p)
			}
			if len(ps) == 0 {
				return errors.New("no problems: give --problems and/or --table")
			}
			if noisy && len(tables) == 0 {
				return errors.New("--noisy applies to --table problems only; none given")
			}
			ss, err := bench.Runnable(samplers, stderr)
			if err != nil {
				return err
			}
			if batch > 1 {
				ss = slices.DeleteFunc(ss, func(name string) bool {
					if !bench.HasBatch(name) {
						fmt.Fprintf(stderr, "skipping %s: it has no synchronous batch mode\n", name)
						return true
					}
					return false
				})
				if len(ss) == 0 {
					return errors.New("no sampler with a batch mode to run")
				}
			}
			total := len(ps) * len(ss) * seeds
			done := 0
			cfg := bench.Config{Problems: ps, Samplers: ss, Seeds: seeds, Budget: budget, Batch: batch, Workers: workers, Parallel: par}
			defer func() { // the real tasks' Python workers
				for _, p := range ps {
					if c, ok := p.(io.Closer); ok {
						c.Close()
					}
				}
			}()
			runs, err := bench.Run(ctx, cfg, func(r bench.RunResult) {
				done++
				status := fmt.Sprintf("final best %.6g", float64(r.FinalBest))
				if r.FeasibleShare != nil {
					if math.IsInf(float64(r.FinalBest), 1) {
						status = "no feasible point"
					}
					status += fmt.Sprintf(", feasible share %.3f", *r.FeasibleShare)
				}
				if r.FinalHV != nil {
					status = fmt.Sprintf("hypervolume %.6g of the front's %.6g (ratio %.4f)", *r.FinalHV, *r.FrontHV, *r.HVRatio)
				}
				if r.Error != "" {
					status = "FAILED: " + r.Error
				}
				fmt.Fprintf(stderr, "[%d/%d] %s %s seed %d: %s\n", done, total, r.Problem, r.Sampler, r.Seed, status)
			})
			return finishBench(cmd, runs, err, total, out, asJSON)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&problemNames, "problems", nil, "problems: test functions (NAME or NAME:DIM) and BBOB instances (bbob:F:D:I)")
	fl.StringArrayVar(&tables, "table", nil, "tabular problem KIND:PATH (nb201, hpobench, fcnet); repeatable")
	fl.BoolVar(&noisy, "noisy", false, "tabular problems draw one seed's value per query instead of the seed mean")
	fl.StringSliceVar(&samplers, "samplers", []string{"gpbo", "random"}, "samplers and peers to compare")
	fl.IntVar(&seeds, "seeds", 5, "runs per problem and sampler (seeds 1..N)")
	fl.IntVar(&budget, "budget", 50, "evaluations per run")
	fl.IntVar(&batch, "batch", 1, "evaluations asked for together (synchronous batches of this size); the budget counts evaluations")
	fl.IntVar(&workers, "workers", 1, "evaluations running at once on a simulated clock (asynchronous workers, half-normal durations with mean 1); the budget counts evaluations")
	fl.IntVar(&par, "parallel", 0, "runs at once (0: the number of cores)")
	fl.StringVar(&out, "out", "", "also write results.json, report.md and PNG plots into this folder")
	fl.BoolVar(&multifidelity, "multifidelity", false, "the multi-fidelity benchmark: trials report per epoch, pruners stop them, --budget counts epochs")
	fl.BoolVar(&asJSON, "json", false, "print the results and summary as one JSON object")
	cmd.AddCommand(latencyCmd())
	return cmd
}

// runMultiFidelity runs the multi-fidelity benchmark of cfg on the
// problems named (bench.ParseFidelityProblem; those whose data are not
// here are skipped) and reports it as the other benchmarks are.
func runMultiFidelity(ctx context.Context, cmd *cobra.Command, cfg bench.FidelityConfig, names []string, out string, asJSON bool) error {
	stderr := cmd.ErrOrStderr()
	for _, spec := range names {
		p, err := bench.ParseFidelityProblem(spec)
		if errors.Is(err, problems.ErrNoData) {
			fmt.Fprintf(stderr, "skipping %s: %v\n", spec, err)
			continue
		}
		if err != nil {
			return err
		}
		cfg.Problems = append(cfg.Problems, p)
	}
	if len(cfg.Problems) == 0 {
		return errors.New("no problems: give --problems nb201-mf:cifar10, lcbench:TASK, ...")
	}
	var methods []string
	for _, m := range cfg.Methods {
		optimiser, _, err := bench.ParseMethod(m)
		if err != nil {
			return err
		}
		if ok, note := bench.Available(optimiser); !ok {
			fmt.Fprintf(stderr, "skipping %s: %s\n", m, note)
			continue
		} else if note != "" {
			fmt.Fprintf(stderr, "%s: %s\n", m, note)
		}
		methods = append(methods, m)
	}
	if len(methods) == 0 {
		return errors.New("none of the methods can run here")
	}
	cfg.Methods = methods
	total := len(cfg.Problems) * len(methods) * cfg.Seeds
	done := 0
	runs, err := bench.RunFidelity(ctx, cfg, func(r bench.RunResult) {
		done++
		status := fmt.Sprintf("final best %.6g", float64(r.FinalBest))
		if r.TestRegret != nil {
			status += fmt.Sprintf(", test regret %.4g", *r.TestRegret)
		}
		if r.Error != "" {
			status = "FAILED: " + r.Error
		}
		fmt.Fprintf(stderr, "[%d/%d] %s %s seed %d: %s\n", done, total, r.Problem, r.Sampler, r.Seed, status)
	})
	return finishBench(cmd, runs, err, total, out, asJSON)
}

// finishBench reports the runs of a benchmark: the summary table or JSON,
// and with out the folder of results. Interrupted, the runs that finished
// are still reported before the command fails.
func finishBench(cmd *cobra.Command, runs []bench.RunResult, err error, total int, out string, asJSON bool) error {
	var failure error
	succeeded := slices.ContainsFunc(runs, func(r bench.RunResult) bool { return r.Error == "" })
	switch {
	case errors.Is(err, context.Canceled):
		failure = fmt.Errorf("interrupted: %d of %d runs finished", len(runs), total)
		if len(runs) == 0 {
			return failure
		}
	case err != nil:
		return err
	case !succeeded:
		failure = fmt.Errorf("all %d runs failed; the first: %s %s seed %d: %s", len(runs), runs[0].Problem, runs[0].Sampler, runs[0].Seed, runs[0].Error)
	}
	report := bench.NewReport(runs)
	if out != "" {
		command := "boa " + strings.Join(os.Args[1:], " ")
		if failure != nil {
			command += " (" + failure.Error() + ")"
		}
		if err := report.WriteDir(out, command); err != nil {
			return err
		}
		plots := ""
		if succeeded { // plots need a run that succeeded
			plots = " and plots"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s/results.json, report.md%s\n", out, plots)
	}
	if asJSON {
		err = report.WriteJSON(cmd.OutOrStdout())
	} else {
		err = printBenchSummary(cmd.OutOrStdout(), report.Summary)
	}
	return cmp.Or(err, failure)
}

// printBenchSummary writes the summary table of the single-objective
// problems (printSingleSummary), then that of the multi-objective ones
// (printMultiSummary).
//
// printSingleSummary's columns: on constrained problems the
// regret is the feasible regret and FEASIBLE the share of feasible
// evaluations, and a median over runs of which half found no feasible
// point says so. Where a problem scores its incumbents on held-out data or
// without noise, TEST REGRET is that score, which the ranks compare; SCORE
// is Bayesmark's normalised score where the optimum is unknown (100 the
// best value seen, 0 random search's mean).
func printBenchSummary(w io.Writer, summary []bench.Summary) error {
	multi := slices.DeleteFunc(slices.Clone(summary), func(s bench.Summary) bool { return s.MedianHV == nil })
	summary = slices.DeleteFunc(slices.Clone(summary), func(s bench.Summary) bool { return s.MedianHV != nil })
	if len(summary) > 0 {
		if err := printSingleSummary(w, summary); err != nil {
			return err
		}
	}
	if len(multi) == 0 {
		return nil
	}
	if len(summary) > 0 {
		fmt.Fprintln(w)
	}
	return printMultiSummary(w, multi)
}

// printMultiSummary writes the table of the multi-objective problems: the
// medians over runs of the observed front's hypervolume, of its ratio to
// the true front's and of log10 of their gap, the IQR of the gap, and
// ranks and wins by the gap.
func printMultiSummary(w io.Writer, summary []bench.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROBLEM\tSAMPLER\tMEDIAN HV\tFRONT HV\tHV RATIO\tLOG10 HV GAP\tIQR GAP\tMEAN RANK\tWINS\tMEDIAN SUGGEST s")
	for _, s := range summary {
		lg, iqr := "-inf", "-"
		if g := float64(*s.MedianLogHVGap); !math.IsInf(g, -1) {
			lg = fmt.Sprintf("%.3f", g)
		}
		if s.IQRRegret != nil {
			iqr = fmt.Sprintf("%.2g", *s.IQRRegret)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.6g\t%.6g\t%.4f\t%s\t%s\t%.2f\t%d\t%.3g\n", s.Problem, s.Sampler, *s.MedianHV, *s.FrontHV, *s.MedianHVRatio, lg, iqr, s.MeanRank, s.Wins, s.MedianSuggestSeconds)
	}
	return tw.Flush()
}

func printSingleSummary(w io.Writer, summary []bench.Summary) error {
	constrained := slices.ContainsFunc(summary, func(s bench.Summary) bool { return s.FeasibleShare != nil })
	tested := slices.ContainsFunc(summary, func(s bench.Summary) bool { return s.MedianTestRegret != nil })
	scored := slices.ContainsFunc(summary, func(s bench.Summary) bool { return s.NormalisedScore != nil })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "PROBLEM\tSAMPLER\tMEDIAN BEST\tMEDIAN REGRET\tIQR\tMEAN RANK\tWINS\tMEDIAN SUGGEST s"
	if tested {
		head += "\tMEDIAN TEST REGRET"
	}
	if scored {
		head += "\tSCORE"
	}
	if constrained {
		head += "\tFEASIBLE"
	}
	fmt.Fprintln(tw, head)
	for _, s := range summary {
		best, reg, iqr := fmt.Sprintf("%.6g", float64(s.MedianFinalBest)), "-", "-"
		if math.IsInf(float64(s.MedianFinalBest), 1) {
			best, reg = "no feasible point", "no feasible point"
		}
		if s.MedianRegret != nil {
			reg = fmt.Sprintf("%.4g", *s.MedianRegret)
		}
		if s.IQRRegret != nil {
			iqr = fmt.Sprintf("%.2g", *s.IQRRegret)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%d\t%.3g", s.Problem, s.Sampler, best, reg, iqr, s.MeanRank, s.Wins, s.MedianSuggestSeconds)
		if tested {
			tr := "-"
			if s.MedianTestRegret != nil {
				tr = fmt.Sprintf("%.4g", *s.MedianTestRegret)
			}
			fmt.Fprintf(tw, "\t%s", tr)
		}
		if scored {
			sc := "-"
			if s.NormalisedScore != nil {
				sc = fmt.Sprintf("%.1f", *s.NormalisedScore)
			}
			fmt.Fprintf(tw, "\t%s", sc)
		}
		if constrained {
			share := "-"
			if s.FeasibleShare != nil {
				share = fmt.Sprintf("%.3f", *s.FeasibleShare)
				if s.NoFeasible > 0 {
					share += fmt.Sprintf(" (%d runs: none)", s.NoFeasible)
				}
			}
			fmt.Fprintf(tw, "\t%s", share)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

func latencyCmd() *cobra.Command {
	var (
		ns       []int
		dim      int
		samplers []string
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "latency --n 100,500,1000,2000 --dim 10 --samplers S1,S2",
		Short: "Time one suggestion at each history size, next to one Cholesky factorisation",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ss, err := bench.Runnable(samplers, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if dim < 1 {
				return fmt.Errorf("--dim must be at least 1, got %d", dim)
			}
			for _, n := range ns {
				if n < 2 {
					return fmt.Errorf("--n values must be at least 2, got %d", n)
				}
			}
			res, err := bench.Latency(cmd.Context(), ss, ns, dim)
			if err != nil {
				return fmt.Errorf("--dim: %w", err)
			}
			if asJSON {
				return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{"latency": res})
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "N\tSAMPLER\tSUGGEST s\tCHOLESKY s\tRATIO")
			for _, r := range res {
				if r.Error != "" {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%.3g\t-\n", r.N, r.Sampler, r.Error, r.CholeskySeconds)
					continue
				}
				fmt.Fprintf(tw, "%d\t%s\t%.3g\t%.3g\t%.1f×\n", r.N, r.Sampler, r.SuggestSeconds, r.CholeskySeconds, r.Ratio)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntSliceVar(&ns, "n", []int{100, 500, 1000}, "history sizes")
	cmd.Flags().IntVar(&dim, "dim", 10, "dimension")
	cmd.Flags().StringSliceVar(&samplers, "samplers", []string{"gpbo", "random"}, "samplers and peers")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// parseProblem reads a problem of --problems: a study file with a
// built-in objective (a name ending in .yaml or .yml, config.Problem), or
// a problem name (problems.Parse).
func parseProblem(spec string) (problems.Problem, error) {
	if ext := filepath.Ext(spec); ext != ".yaml" && ext != ".yml" {
		return problems.Parse(spec)
	}
	cfg, err := config.Load(spec)
	if err != nil {
		return nil, err
	}
	p, err := cfg.Problem()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", spec, err)
	}
	return p, nil
}
