package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/boaopt/boa/bench/functions"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

type runFlags struct {
	function string
	dim      int
	trials   int
	sampler  string
	seed     uint64
	workers  int
	json     bool
}

func runCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run --function NAME [--dim D] --trials N [--sampler S] [--seed K] [--json]",
		Short: "Minimise a built-in test function",
		Long: "Minimise a built-in test function and report the best value found.\n\n" +
			"Functions: " + strings.Join(functions.Names(), ", ") + "\n" +
			"Samplers:  " + strings.Join(sampler.Names(), ", "),
		Example: "  boa run --function branin --trials 30 --sampler gpbo --seed 1\n" +
			"  boa run --function ackley --dim 5 --trials 60 --json",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runFunction(cmd.Context(), f, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.function, "function", "", "built-in test function to minimise (required)")
	fl.IntVar(&f.dim, "dim", 0, "dimension, for functions defined in any dimension (0: the function's default)")
	fl.IntVar(&f.trials, "trials", 50, "number of evaluations")
	fl.StringVar(&f.sampler, "sampler", "auto", "sampler: "+strings.Join(sampler.Names(), ", "))
	fl.Uint64Var(&f.seed, "seed", 1, "random seed (same seed, same run)")
	fl.IntVar(&f.workers, "workers", 1, "evaluations run at once")
	fl.BoolVar(&f.json, "json", false, "print one JSON object with the result on stdout")
	_ = cmd.MarkFlagRequired("function")
	return cmd
}

// runResult is the JSON line of DESIGN.md §2.1.
type runResult struct {
	Function   string             `json:"function"`
	Sampler    string             `json:"sampler"`
	Seed       uint64             `json:"seed"`
	Trials     int                `json:"trials"`
	BestValue  *float64           `json:"best_value"`
	BestParams map[string]float64 `json:"best_params"`
	Optimum    *float64           `json:"optimum"`
	Regret     *float64           `json:"regret"`
}

func runFunction(ctx context.Context, f runFlags, stdout, stderr io.Writer) error {
	if f.trials < 1 {
		return fmt.Errorf("--trials must be at least 1, got %d", f.trials)
	}
	fn, err := functions.Get(f.function, f.dim)
	if err != nil {
		return err
	}
	smp, err := sampler.New(f.sampler)
	if err != nil {
		return err
	}
	params := make([]space.Param, fn.Dim)
	for i := range params {
		params[i] = space.Param{Name: fmt.Sprintf("x%d", i+1), Kind: space.Float, Low: fn.Lower[i], High: fn.Upper[i]}
	}
	sp, err := space.New(params...)
	if err != nil {
		return err
	}
	st, err := study.New(sp, study.Options{Name: fn.Name, Sampler: smp, Seed: f.seed})
	if err != nil {
		return err
	}
	objective := func(_ context.Context, t study.Trial) (float64, error) {
		x := make([]float64, fn.Dim)
		for i, p := range params {
			x[i] = t.Float(p.Name)
		}
		return fn.F(x), nil
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	progress := newProgress(stderr, f.trials, f.json)
	err = st.Optimize(ctx, objective, f.trials, study.OptimizeOptions{Workers: f.workers, OnTrial: progress})
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	res := runResult{Function: fn.Name, Sampler: smp.Name(), Seed: f.seed, Trials: len(st.Trials()), BestParams: map[string]float64{}}
	if best, ok := st.Best(); ok {
		res.BestValue = &best.Value
		for k, v := range best.Params {
			res.BestParams[k] = v.(float64)
		}
		if !math.IsNaN(fn.Optimum) {
			opt, reg := fn.Optimum, fn.Regret(best.Value)
			res.Optimum, res.Regret = &opt, &reg
		}
	}
	if f.json {
		return json.NewEncoder(stdout).Encode(res)
	}
	printSummary(stdout, res, params)
	return err
}

func printSummary(w io.Writer, r runResult, params []space.Param) {
	fmt.Fprintf(w, "function  %s\nsampler   %s\nseed      %d\ntrials    %d\n", r.Function, r.Sampler, r.Seed, r.Trials)
	if r.BestValue == nil {
		fmt.Fprintln(w, "best      none (no trial completed)")
		return
	}
	fmt.Fprintf(w, "best      %.6g\n", *r.BestValue)
	if r.Optimum != nil {
		fmt.Fprintf(w, "optimum   %.6g\nregret    %.3g\n", *r.Optimum, *r.Regret)
	}
	for _, p := range params {
		fmt.Fprintf(w, "  %-6s  %.6g\n", p.Name, r.BestParams[p.Name])
	}
}

// newProgress returns the per-trial callback that shows progress on w: a
// bar when w is a terminal, else one plain line per trial unless quiet.
func newProgress(w io.Writer, total int, quiet bool) func(study.Trial) {
	best := math.Inf(1)
	if file, ok := w.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("trials"),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(),
		)
		return func(t study.Trial) {
			if t.State == study.Complete && t.Value < best {
				best = t.Value
				bar.Describe(fmt.Sprintf("best %.6g", best))
			}
			_ = bar.Add(1)
		}
	}
	if quiet {
		return nil
	}
	return func(t study.Trial) {
		if t.State == study.Complete && t.Value < best {
			best = t.Value
		}
		detail := fmt.Sprintf("value %.6g", t.Value)
		if t.State != study.Complete {
			detail = fmt.Sprintf("%s: %s", t.State, t.Reason)
		}
		fmt.Fprintf(w, "trial %d/%d  %s  best %.6g\n", t.Number+1, total, detail, best)
	}
}
