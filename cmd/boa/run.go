package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/problems"
	"github.com/boaopt/boa/problems/conditional"
	"github.com/boaopt/boa/problems/functions"
	"github.com/boaopt/boa/problems/mixed"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

type runFlags struct {
	function  string
	dim       int
	trials    int
	sampler   string
	transform string
	seed      uint64
	workers   int
	json      bool
	resume    bool
	storage   string
	lease     time.Duration
	timeout   time.Duration
	keepGoing bool
}

func runCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run (CONFIG.yaml [--resume] [--workers K] [--storage URL] | --function NAME [--dim D] [--trials N])",
		Short: "Run a study from a study file, or minimise a built-in test function",
		Long: "boa run CONFIG.yaml runs the study the file describes (docs/study-file.md): its\n" +
			"command is run once per trial, in the file's directory, trials are kept in the\n" +
			"storage (--storage, else the file's, else $BOA_STORAGE, else sqlite:boa.db), and\n" +
			"--resume continues a study where it stopped (with --trials N, N trials in all).\n" +
			"--trials, --workers, --seed, --sampler, --transform, --timeout and --storage,\n" +
			"when given, override the file's fields of those names (a --sampler drops the\n" +
			"file's sampler options); the others are the file's. A study without a budget\n" +
			"runs until Ctrl-C. It exits non-zero when a study with a budget is interrupted\n" +
			"(Ctrl-C; a second Ctrl-C exits at once), when the storage fails for longer than\n" +
			"--lease, when every trial failed (the most common reason is shown) or the first\n" +
			"three failed alike (--keep-going runs on), and with --resume when trials are left\n" +
			"RUNNING by another process (it says when their lease runs out; those of a\n" +
			"process killed on this machine are re-run at once).\n\n" +
			"boa run --function NAME minimises a built-in test function in memory: a\n" +
			"continuous test function (--dim for those defined in any dimension), a\n" +
			"mixed categorical problem of the CoCaBO and CASMOPOLITAN papers, or a\n" +
			"problem on a conditional space; --trials 50, --seed 1, --sampler auto, --workers 1\n" +
			"and --transform none unless given.\n\n" +
			"Functions:   " + strings.Join(functions.Names(), ", ") + "\n" +
			"Mixed:       " + strings.Join(mixed.Names(), ", ") + "\n" +
			"Conditional: " + strings.Join(conditional.Names(), ", ") + "\n" +
			"Samplers:    " + strings.Join(sampler.Names(), ", "),
		Example: "  boa run examples/quickstart.yaml\n" +
			"  boa run examples/quickstart.yaml --resume --workers 2\n" +
			"  boa run examples/quickstart.yaml --resume --trials 50   # 20 more\n" +
			"  boa run --function branin --trials 30 --sampler gpbo --seed 1\n" +
			"  boa run --function ackley --dim 5 --trials 60 --json\n" +
			"  boa run --function func3c --trials 100 --sampler cocabo",
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			go func() { <-ctx.Done(); stop() }() // a second Ctrl-C kills at once
			switch {
			case len(args) == 1 && f.function != "":
				return errors.New("give a study file or --function, not both")
			case len(args) == 1:
				return runStudyFile(ctx, args[0], f, cmd.Flags().Changed, cmd.OutOrStdout(), cmd.ErrOrStderr())
			case f.function != "":
				return runFunction(ctx, f, cmd.OutOrStdout(), cmd.ErrOrStderr())
			}
			return errors.New("give a study file (boa run CONFIG.yaml) or a test function (boa run --function NAME)")
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.function, "function", "", "built-in test function to minimise (instead of a study file)")
	fl.IntVar(&f.dim, "dim", 0, "with --function: the dimension, for functions defined in any dimension (default: the function's)")
	// The defaults below are those of --function; with a study file, a
	// flag not given leaves the file's field (or the file's default) as it
	// is. Cobra would print "(default 50)" after --trials, which a file
	// with trials: 200 contradicts, so each usage says both defaults and
	// DefValue is the zero value, which cobra does not print.
	fl.IntVar(&f.trials, "trials", 50, "number of evaluations (0: no budget, until Ctrl-C); overrides the study file's trials, with --resume too (default: the file's; 50 with --function)")
	fl.StringVar(&f.sampler, "sampler", "auto", "sampler (Samplers: above); overrides the study file's sampler and its options (default: the file's, else auto; auto with --function)")
	fl.StringVar(&f.transform, "transform", "none", "what the model is fitted to: none, log (values > 0) or copula (their ranks); overrides the study file's transform (default: the file's, else none)")
	fl.Uint64Var(&f.seed, "seed", 1, "random seed (same seed, same run); overrides the study file's seed (default: the file's, else 0; 1 with --function)")
	fl.IntVar(&f.workers, "workers", 1, "trials run at once; overrides the study file's workers (default: the file's, else 1)")
	for _, name := range []string{"trials", "seed", "workers"} {
		fl.Lookup(name).DefValue = "0"
	}
	fl.Lookup("sampler").DefValue, fl.Lookup("transform").DefValue = "", ""
	fl.BoolVar(&f.json, "json", false, "with --function: print one JSON object with the result on stdout")
	fl.BoolVar(&f.resume, "resume", false, "with a study file: continue its study if the storage has it")
	fl.StringVar(&f.storage, "storage", "", "storage URL: sqlite:PATH, postgres://..., memory:; overrides the study file's storage (default: the file's, else $BOA_STORAGE, else "+config.DefaultStorage+")")
	fl.DurationVar(&f.lease, "lease", study.DefaultLease, "with a study file: a running trial without a heartbeat for this long is failed as stale and re-queued")
	fl.DurationVar(&f.timeout, "timeout", 0, "with a study file: start no trial after this long, e.g. 2h; overrides the study file's timeout (default: the file's, else none)")
	fl.BoolVar(&f.keepGoing, "keep-going", false, "with a study file: run on when the first three trials fail alike")
	return cmd
}

// runStudyFile runs the study of a study file until its budget is used.
func runStudyFile(ctx context.Context, path string, f runFlags, changed func(string) bool, stdout, stderr io.Writer) error {
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	if changed("trials") {
		cfg.Trials = f.trials
	}
	if changed("workers") {
		cfg.Workers = f.workers
	}
	if changed("seed") {
		cfg.Seed = f.seed
	}
	if changed("sampler") {
		cfg.Sampler = config.Sampler{Type: f.sampler} // the file's options were for its own sampler
	}
	if changed("transform") {
		cfg.Transform = f.transform
	}
	if changed("timeout") {
		cfg.Timeout = config.Duration(f.timeout)
	}
	if cfg.Trials < 0 {
		return fmt.Errorf("--trials must be at least 0 (0: no budget, until stopped), got %d", cfg.Trials)
	}
	objective, _, err := runChecks(ctx, path, cfg, false, stderr)
	if err != nil {
		return err
	}
	// --storage, else the file's, else $BOA_STORAGE, where the inspection
	// commands look too, else the embedded default.
	url := cfg.StorageURL()
	if env := os.Getenv("BOA_STORAGE"); env != "" && cfg.Storage == "" {
		url = env
	}
	if f.storage != "" {
		url = f.storage
	}
	store, err := storage.Open(ctx, url)
	if err != nil {
		return err
	}
	defer store.Close()
	shown := storage.Redact(url) // in messages
	st, err := openStudy(ctx, store, cfg, f.resume, shown)
	if err != nil {
		return err
	}
	st.SetLease(f.lease)
	if b := st.Budget(); b != cfg.Trials {
		// --resume with another budget: run 30, look, run 20 more.
		if err := st.SetBudget(ctx, cfg.Trials); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "boa: budget of study %s: %s → %s\n", st.Name(), budgetText(b), budgetText(cfg.Trials))
	}
	if cfg.Deploy != nil {
		st.SetKnown(cfg.Deploy.Known())
	}
	before, err := st.Trials(ctx)
	if err != nil {
		return err
	}
	sum, err := st.Summary(ctx)
	if err != nil {
		return err
	}
	again, done, running := sum.ReRuns, sum.Finished, sum.States[study.Running]
	status := fmt.Sprintf("%d of %d trials done", done, cfg.Trials)
	if cfg.Trials == 0 {
		status = fmt.Sprintf("%d trials done, no budget (until Ctrl-C)", done)
	}
	if cfg.Timeout > 0 {
		status += fmt.Sprintf(", stops starting trials after %v", cfg.Timeout)
	}
	if running > 0 {
		status += fmt.Sprintf(", %d running", running)
	}
	fmt.Fprintf(stderr, "study %s: %s, sampler %s, %s, storage %s\n",
		st.Name(), senseText(st), modelLabel(st), status, shown)
	if again > 0 {
		fmt.Fprintf(stderr, "boa: %d interrupted or lost trials run again first\n", again)
	}
	// The first few trials of this run are checked for what a mistake in
	// the command shows: metrics a constraint needs never reported, or
	// (with more budget left) every trial failing for the same reason.
	first := 3
	if cfg.Trials > 0 {
		first = min(first, max(1, cfg.Trials-done))
	}
	onTrial := newProgress(ctx, stderr, cfg.Trials, done, false, st.Direction(), before)
	if c := st.Constraints(); len(c) > 0 && cfg.Objective.Function == "" {
		check := metricCheck(stderr, c, first)
		progress := onTrial
		onTrial = func(t study.Trial) { progress(t); check(t) }
	}
	opts := study.OptimizeOptions{Workers: max(1, cfg.Workers), OnTrial: onTrial, Timeout: time.Duration(cfg.Timeout)}
	if !f.keepGoing && (cfg.Trials == 0 || cfg.Trials-done > failFastAfter) {
		opts.Stop = failFast(failFastAfter, before)
	}
	err = st.Optimize(ctx, objective(st), 0, opts)
	trials, terr := st.Trials(context.WithoutCancel(ctx))
	switch {
	case terr != nil && err != nil:
		return fmt.Errorf("%w (and the trials could not be listed: %v)", err, terr)
	case terr != nil:
		return terr
	}
	printStudySummary(context.WithoutCancel(ctx), stdout, st, trials)
	running, complete := 0, 0
	for _, t := range trials {
		switch t.State {
		case study.Running:
			running++
		case study.Complete:
			complete++
		}
	}
	if running > 0 && err == nil {
		err = stillRunning(context.WithoutCancel(ctx), st, path, f.resume, stderr)
	}
	if err == nil && complete == 0 {
		// Optimize's check is of the trials it ran; none ran here (the
		// budget was used up before), and none of the study completed.
		err = study.AllFailed(st.Name(), trials)
	}
	var all *study.AllFailedError
	switch {
	case errors.Is(err, context.Canceled) && cfg.Trials == 0 && len(unrecorded(err)) == 0:
		// Ctrl-C is how a study without a budget ends.
		fmt.Fprintf(stderr, "boa: stopped; the running trials were re-queued; continue with: boa run %s --resume\n", path)
		return nil
	case errors.Is(err, context.Canceled):
		return interruptedError(err, path, f.lease)
	case err == nil && cfg.Timeout > 0 && (cfg.Trials == 0 || remaining(ctx, st) > 0):
		fmt.Fprintf(stderr, "boa: the timeout of %v has passed: no more trials in this run; continue with: boa run %s --resume\n", cfg.Timeout, path)
	case errors.As(err, &all) && all.First.LogPath != "":
		// Every trial failing is most often the command's fault (a typo,
		// a missing file): where its output is helps most.
		return fmt.Errorf("%w%s", err, logHint(all.First))
	}
	return err
}

// openStudy creates the file's study, or opens it with --resume after
// checking that the file still describes it. url names the storage in
// errors, without its password.
func openStudy(ctx context.Context, store storage.Storage, cfg *config.Study, resume bool, url string) (*study.Study, error) {
	spec, err := cfg.Spec()
	if err != nil {
		return nil, err
	}
	st, err := study.Create(ctx, store, spec)
	if !errors.Is(err, storage.ErrExists) {
		return st, err
	}
	if !resume {
		return nil, fmt.Errorf("study %q already exists in %s: add --resume to continue it, or give the study another name", cfg.Name, url)
	}
	st, err = study.Open(ctx, store, cfg.Name)
	if err != nil {
		return nil, err
	}
	if err := st.CheckResume(spec, url); err != nil {
		return nil, err
	}
	return st, nil
}

// fileObjective builds the objective of a study file: its command, run
// once per trial by runner, or a built-in test function of the space's
// parameters in order. A trial's warnings (runner.Result.Warnings) go to
// stderr.
func fileObjective(cfg *config.Study, stderr io.Writer) (func(*study.Study) study.Objective, error) {
	o := cfg.Objective
	if o.Function != "" {
		f, err := cfg.BuiltIn()
		if err != nil {
			return nil, err
		}
		return func(st *study.Study) study.Objective {
			return func(_ context.Context, t *study.Trial) (float64, error) {
				v, metrics, err := f(t.Params, st.Seed())
				maps.Copy(t.Metrics, metrics)
				return v, err
			}
		}, nil
	}
	cmd, err := objectiveCommand(o, false)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex // trials run in parallel with workers: > 1
	return func(st *study.Study) study.Objective {
		return func(ctx context.Context, t *study.Trial) (float64, error) {
			rt := runner.Trial{ID: t.ID, Number: t.Number, Study: st.Name(), Params: st.Space().Export(t.Params)}
			if f := st.Fidelity(); f != nil {
				rt.Fidelity = &runner.Fidelity{Name: f.Name, Value: f.Max}
			}
			out, _ := runner.LogPaths(cmd.LogDir, rt)
			_ = st.Storage().SetLogPath(ctx, t.ID, out)
			res, err := runner.RunPrunable(ctx, cmd, rt, func(_ context.Context, r runner.Report) bool {
				if t.Report(ctx, r.Step, r.Value) != nil {
					return false
				}
				prune, _ := t.ShouldPrune(ctx)
				return prune
			})
			if errors.Is(err, runner.ErrPruned) {
				return res.Value, study.ErrPruned
			}
			if len(res.Warnings) > 0 {
				mu.Lock()
				for _, w := range res.Warnings {
					fmt.Fprintf(stderr, "boa: trial %d: warning: %s\n", t.Number, w)
				}
				mu.Unlock()
			}
			maps.Copy(t.Metrics, res.Metrics)
			if err != nil {
				return res.Value, err
			}
			values, err := res.Objectives(st.ObjectiveNames())
			if err != nil {
				return 0, err
			}
			if st.MultiObjective() {
				t.Values = values
			}
			return values[0], nil
		}
	}, nil
}

// runResult is the JSON line of DESIGN.md §2.1. ChosenSampler extends it:
// what auto chose (the text summary's "auto (cocabo)"), absent otherwise.
type runResult struct {
	Function      string         `json:"function"`
	Sampler       string         `json:"sampler"`
	ChosenSampler string         `json:"chosen_sampler,omitempty"`
	Seed          uint64         `json:"seed"`
	Trials        int            `json:"trials"`
	BestValue     *float64       `json:"best_value"`
	BestParams    map[string]any `json:"best_params"`
	Optimum       *float64       `json:"optimum"`
	Regret        *float64       `json:"regret"`
}

// constrainedProblem is a built-in problem with limits on the metrics it
// reports (problems/constrained, GKLS with constraints): boa run
// --function declares them on its study.
type constrainedProblem interface {
	Constraints() constraint.Set
	Measure(a space.Assignment, rng *rand.Rand) (float64, map[string]float64, error)
}

// runFunction minimises a built-in test function in memory.
func runFunction(ctx context.Context, f runFlags, stdout, stderr io.Writer) error {
	if f.trials < 1 {
		return fmt.Errorf("--trials must be at least 1, got %d", f.trials)
	}
	p, err := problems.Named(f.function, f.dim)
	if err != nil {
		return err
	}
	smp, err := sampler.New(f.sampler)
	if err != nil {
		return err
	}
	tf, err := transform.Parse(f.transform)
	if err != nil {
		return fmt.Errorf("--transform: %w", err)
	}
	// The budget is the study's, as in boa bench (CoCaBO sets its bandits'
	// horizon by it), so both give the same run for the same seed.
	o := study.Options{Name: p.Name(), Sampler: smp, Seed: f.seed, Budget: f.trials, Transform: tf}
	cp, constrained := p.(constrainedProblem)
	if constrained {
		o.Constraints = cp.Constraints()
	}
	st, err := study.New(p.Space(), o)
	if err != nil {
		return err
	}
	objective := func(_ context.Context, t *study.Trial) (float64, error) {
		// A noisy problem (Func-3C adds 1e-6·U(0, 1)) draws from a source
		// of the seed and the trial: a trial's value does not depend on
		// the order in which --workers finish the others.
		rng := rand.New(rand.NewPCG(f.seed, uint64(t.Number)))
		if !constrained {
			return p.Evaluate(t.Params, rng)
		}
		v, metrics, err := cp.Measure(t.Params, rng)
		maps.Copy(t.Metrics, metrics)
		return v, err
	}
	progress := newProgress(ctx, stderr, f.trials, 0, f.json, study.Minimize, nil)
	err = st.Optimize(ctx, objective, f.trials, study.OptimizeOptions{Workers: f.workers, OnTrial: progress})
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	trials, _ := st.Trials(context.WithoutCancel(ctx))
	res := runResult{Function: p.Name(), Sampler: smp.Name(), ChosenSampler: autoChoice(st), Seed: f.seed, Trials: len(trials), BestParams: map[string]any{}}
	if best, ok, _ := st.Best(context.WithoutCancel(ctx)); ok {
		res.BestValue = &best.Value
		maps.Copy(res.BestParams, best.Params)
		if opt, ok := p.Optimum(); ok {
			reg := best.Value - opt
			res.Optimum, res.Regret = &opt, &reg
		}
	}
	if f.json {
		res.BestParams = st.Space().Export(res.BestParams) // a Float at a bound as 0.0, as the API writes it
		return json.NewEncoder(stdout).Encode(res)
	}
	printFunctionSummary(stdout, res, p.Space().Names())
	return err
}

func printFunctionSummary(w io.Writer, r runResult, names []string) {
	fmt.Fprintf(w, "function  %s\nsampler   %s\nseed      %d\ntrials    %d\n", r.Function, withChoice(r.Sampler, r.ChosenSampler), r.Seed, r.Trials)
	if r.BestValue == nil {
		fmt.Fprintln(w, "best      none (no trial completed)")
		return
	}
	fmt.Fprintf(w, "best      %.6g\n", *r.BestValue)
	if r.Optimum != nil {
		fmt.Fprintf(w, "optimum   %.6g\nregret    %.3g\n", *r.Optimum, *r.Regret)
	}
	for _, name := range names {
		if v, ok := r.BestParams[name]; ok {
			fmt.Fprintf(w, "  %-6s  %s\n", name, paramText(v))
		}
	}
}
