package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/worker"
)

type workerFlags struct {
	server    string
	study     string
	token     string
	name      string
	trials    int
	timeout   time.Duration
	heartbeat time.Duration
	logs      string
	wait      bool
	retry     time.Duration
}

func workerCmd() *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker --server URL --study NAME [flags] -- CMD ARGS...",
		Short: "Ask a boa server for trials, run CMD for each, tell the results",
		Long: "Ask a boa server for trials of a study, run CMD for each (DESIGN.md §2.3:\n" +
			"{name} placeholders in ARGS ({name?} leaves out its argument when the parameter\n" +
			"is inactive), BOA_PARAMS and BOA_TRIAL_ID in the environment,\n" +
			"BOA_RESULT/BOA_METRIC/BOA_REPORT lines on stdout) and tell the results, with\n" +
			"heartbeats while CMD runs. Transient network errors are retried.\n\n" +
			"The worker exits 0 once the study's budget is used up (by default after the\n" +
			"trials still running elsewhere have finished, since a crashed worker's trial\n" +
			"is re-queued) or after --trials trials. Ctrl-C stops CMD, records the trial\n" +
			"as FAILED \"interrupted\" (its configuration is re-queued) and exits non-zero.",
		Example: "  boa worker --server http://127.0.0.1:8080 --study svm -- python3 train.py --C {C}\n" +
			"  BOA_TOKEN=s3cret boa worker --server http://boa:8080 --study svm --trials 10 --timeout 1h -- ./train.sh",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return errors.New("no command: give it after --, e.g. boa worker --server URL --study NAME -- python3 train.py --lr {lr}")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("token") {
				f.token = os.Getenv("BOA_TOKEN")
			}
			return runWorker(cmd.Context(), f, args, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	fl.SetInterspersed(false) // everything after the first argument belongs to CMD
	fl.StringVar(&f.server, "server", "", "URL of the boa server, e.g. http://127.0.0.1:8080 (required)")
	fl.StringVar(&f.study, "study", "", "name of the study (required)")
	fl.StringVar(&f.token, "token", "", "bearer token (default $BOA_TOKEN)")
	// The default lets a server on this host prove a killed worker gone
	// and re-run its trials at once (internal/proc).
	fl.StringVar(&f.name, "name", proc.Self(), "worker name recorded with its trials")
	fl.IntVar(&f.trials, "trials", 0, "stop after this many trials (0: until the study's budget is used up)")
	fl.DurationVar(&f.timeout, "timeout", 0, "a trial running longer is stopped and FAILED (0: no limit)")
	fl.DurationVar(&f.heartbeat, "heartbeat", 10*time.Second, "heartbeat interval while a trial runs and until its result is told (at most a third of the server's lease is used)")
	fl.StringVar(&f.logs, "logs", "", "folder for per-trial stdout/stderr logs (DIR/STUDY/trial-N.out|err)")
	fl.BoolVar(&f.wait, "wait", true, "when the budget is used up, keep asking until no trial runs anywhere, to take over re-queued ones")
	fl.DurationVar(&f.retry, "retry", client.DefaultRetry, "how long to retry an unreachable server before giving up")
	_ = cmd.MarkFlagRequired("server")
	_ = cmd.MarkFlagRequired("study")
	return cmd
}

func runWorker(ctx context.Context, f workerFlags, args []string, stderr io.Writer) error {
	if f.heartbeat <= 0 {
		return fmt.Errorf("--heartbeat must be positive, got %v", f.heartbeat)
	}
	if f.trials < 0 {
		return fmt.Errorf("--trials must be 0 (no limit) or more, got %d", f.trials)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // a second Ctrl-C kills at once

	var mu sync.Mutex
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(stderr, "boa worker: "+format+"\n", args...)
	}
	// The same failure is logged once per 10 s: during an outage every
	// heartbeat retries, and each retry logged made some 50 lines per
	// trial of a 5 s database restart.
	var (
		lastRetry   string
		lastRetryAt time.Time
	)
	c := client.New(f.server, f.token, client.WithRetry(f.retry), client.WithOnRetry(func(err error, wait time.Duration) {
		mu.Lock()
		quiet := err.Error() == lastRetry && time.Since(lastRetryAt) < 10*time.Second
		if !quiet {
			lastRetry, lastRetryAt = err.Error(), time.Now()
		}
		mu.Unlock()
		if !quiet {
			logf("%v; retrying in %v", err, wait.Round(time.Millisecond))
		}
	}))
	err := worker.Run(ctx, c, worker.Options{
		Study: f.study, Server: f.server, Name: f.name, Trials: f.trials, Heartbeat: f.heartbeat, Wait: f.wait, Log: logf,
		Command: runner.Command{Args: args, Timeout: f.timeout, LogDir: f.logs},
	})
	if errors.Is(err, worker.ErrInterrupted) && f.trials == 0 {
		// Ctrl-C is how a worker of a study without a budget ends.
		qctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if st, serr := c.Study(qctx, f.study); serr == nil && st.Budget == 0 {
			logf("stopped (the study has no budget)")
			return nil
		}
	}
	return err
}
