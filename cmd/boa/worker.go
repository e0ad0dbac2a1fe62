package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/space"
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
			"{name} placeholders in ARGS, BOA_PARAMS and BOA_TRIAL_ID in the environment,\n" +
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
	host, _ := os.Hostname()
	fl.StringVar(&f.server, "server", "", "URL of the boa server, e.g. http://127.0.0.1:8080 (required)")
	fl.StringVar(&f.study, "study", "", "name of the study (required)")
	fl.StringVar(&f.token, "token", "", "bearer token (default $BOA_TOKEN)")
	fl.StringVar(&f.name, "name", fmt.Sprintf("%s:%d", host, os.Getpid()), "worker name recorded with its trials")
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

// errWorkerInterrupted ends a worker stopped by a signal (a non-zero exit).
var errWorkerInterrupted = errors.New("interrupted")

// remoteWorker is one `boa worker` process.
type remoteWorker struct {
	f   workerFlags
	c   *client.Client
	cmd runner.Command
	log func(format string, args ...any)
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
	w := &remoteWorker{f: f, log: logf, cmd: runner.Command{Args: args, Timeout: f.timeout, LogDir: f.logs}}
	// The same failure is logged once per 10 s: during an outage every
	// heartbeat retries, and each retry logged made some 50 lines per
	// trial of a 5 s database restart.
	var (
		lastRetry   string
		lastRetryAt time.Time
	)
	w.c = client.New(f.server, f.token, client.WithRetry(f.retry), client.WithOnRetry(func(err error, wait time.Duration) {
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

	st, err := w.c.Study(ctx, f.study)
	if err != nil {
		return w.fatal(ctx, err)
	}
	var sp space.Space
	if err := json.Unmarshal(st.Space, &sp); err != nil {
		return fmt.Errorf("study %q: the server sent a space this boa cannot read: %w", f.study, err)
	}
	if err := runner.ValidateSpace(w.cmd, &sp); err != nil {
		return err
	}
	if err := w.cmd.Check(); err != nil {
		return err
	}
	logf("study %s on %s as %s: %s", f.study, f.server, f.name, strings.Join(args, " "))

	done, waited := 0, false
	for f.trials == 0 || done < f.trials {
		b, err := w.c.Ask(ctx, f.study, 1, f.name)
		if err != nil {
			return w.fatal(ctx, err)
		}
		if len(b.Trials) == 0 {
			if !f.wait || b.Pending == 0 {
				logf("the study's budget is used up; %d trials run here", done)
				return nil
			}
			if !waited {
				logf("the study's budget is used up; waiting for %d unfinished trials (a crashed one is re-queued)", b.Pending)
				waited = true
			}
			// Stale trials are reaped by asks, so ask often enough to take
			// over a crashed worker's trial soon after its lease lapses.
			if err := sleepCtx(ctx, min(max(b.Lease/4, 250*time.Millisecond), 5*time.Second)); err != nil {
				return errWorkerInterrupted
			}
			continue
		}
		hb := f.heartbeat
		if b.Lease > 0 {
			hb = min(hb, b.Lease/3)
		}
		if err := w.run(ctx, b.Trials[0], hb); err != nil {
			return err
		}
		done++
	}
	logf("ran %d trials (--trials)", done)
	return nil
}

// fatal words an error that ends the worker.
func (w *remoteWorker) fatal(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return errWorkerInterrupted
	case client.StatusOf(err) == http.StatusNotFound:
		return fmt.Errorf("study %q not found on %s (create it with POST /api/v1/studies first)", w.f.study, w.f.server)
	case client.StatusOf(err) == http.StatusUnauthorized:
		return fmt.Errorf("%w (set BOA_TOKEN or --token to the server's token)", err)
	}
	return err
}

// errTrialLost cancels a trial the server no longer takes as running.
var errTrialLost = errors.New("the server no longer takes this trial as running")

// run runs one trial: CMD with heartbeats and reports, then tell. It
// returns an error only when the worker must stop.
func (w *remoteWorker) run(ctx context.Context, t client.Trial, every time.Duration) error {
	start := time.Now()
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// Heartbeats go on until the result is told, through a Ctrl-C too:
	// when the server is down as CMD ends, the tell is retried, and once
	// the server is back the trial must not be taken for dead (by another
	// worker's ask) before the tell lands.
	stopBeat := w.heartbeat(context.WithoutCancel(ctx), cancel, t, every)
	defer stopBeat()
	var reportErr sync.Once
	res, err := runner.RunPrunable(rctx, w.cmd, runner.Trial{ID: t.ID, Number: t.Number, Study: w.f.study, Params: t.Params}, func(rctx context.Context, r runner.Report) bool {
		prune, err := w.c.Report(rctx, t.ID, r.Step, r.Value)
		if err != nil && rctx.Err() == nil {
			reportErr.Do(func() { w.log("trial %d: report lost: %v", t.Number, err) })
		}
		return err == nil && prune
	})
	pruned := errors.Is(err, runner.ErrPruned)
	lost := context.Cause(rctx) == errTrialLost
	cancel(nil)
	for _, warning := range res.Warnings {
		w.log("trial %d: warning: %s", t.Number, warning)
	}
	took := time.Since(start).Round(time.Millisecond)

	var r client.Result
	switch {
	case lost:
		w.log("trial %d %s: stopped after %v: %v (it was taken for dead and re-queued; the result is discarded)",
			t.Number, briefParams(t.Params), took, errTrialLost)
		return nil
	case err == nil:
		r = client.Result{Value: res.Value, Metrics: res.Metrics}
	case pruned:
		r = client.Result{State: "PRUNED", Value: res.Value, Metrics: res.Metrics}
	case ctx.Err() != nil:
		r = client.Result{State: "FAILED", Reason: "interrupted", Requeue: true, Metrics: res.Metrics}
	default:
		r = client.Result{State: "FAILED", Reason: err.Error(), Metrics: res.Metrics}
	}
	// The result is recorded even when interrupted, then within a short
	// bound; otherwise the client's retries bound it (a server restarting
	// meanwhile does not lose the result).
	tctx := context.WithoutCancel(ctx)
	if ctx.Err() != nil {
		var tcancel context.CancelFunc
		tctx, tcancel = context.WithTimeout(tctx, 15*time.Second)
		defer tcancel()
	}
	terr := w.c.Tell(tctx, t.ID, r)
	var refused *client.Error
	if r.State == "" && errors.As(terr, &refused) && refused.Status == http.StatusBadRequest {
		// The study cannot take the value (a log transform and a value
		// that is not > 0): the trial fails with the server's reason,
		// which keeps the value, rather than stay RUNNING until reaped.
		r = client.Result{State: "FAILED", Reason: refused.Message, Metrics: res.Metrics}
		terr = w.c.Tell(tctx, t.ID, r)
	}
	stopBeat()
	switch {
	case terr != nil && client.StatusOf(terr) == http.StatusConflict:
		w.log("trial %d %s: result not recorded: %v", t.Number, briefParams(t.Params), terr)
	case terr != nil:
		return fmt.Errorf("trial %d: telling the result: %w", t.Number, terr)
	case r.State == "FAILED":
		w.log("trial %d %s FAILED after %v: %s", t.Number, briefParams(t.Params), took, r.Reason)
	case r.State == "PRUNED":
		w.log("trial %d %s PRUNED at %.6g after %v", t.Number, briefParams(t.Params), r.Value, took)
	default:
		w.log("trial %d %s COMPLETE %.6g in %v", t.Number, briefParams(t.Params), r.Value, took)
	}
	if ctx.Err() != nil {
		return errWorkerInterrupted
	}
	return nil
}

// heartbeat beats for t every interval until stopped; a 409 (the trial
// is no longer RUNNING) cancels the trial with errTrialLost.
func (w *remoteWorker) heartbeat(ctx context.Context, cancel context.CancelCauseFunc, t client.Trial, every time.Duration) (stop func()) {
	ctx, stopCtx := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		warned := false
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			// One beat, retries included, lasts at most the interval, so
			// that the client's backoff (up to 10 s) does not hold back
			// the beats once a server that was down is back: the lease
			// counts from the last beat the server stored.
			bctx, bcancel := context.WithTimeout(ctx, every)
			err := w.c.Heartbeat(bctx, t.ID)
			bcancel()
			switch {
			case err == nil || ctx.Err() != nil:
			case client.StatusOf(err) == http.StatusConflict:
				cancel(errTrialLost)
				return
			case !warned:
				w.log("trial %d: heartbeat failed: %v", t.Number, err)
				warned = true
			}
		}
	}()
	return func() { stopCtx(); <-done }
}

// briefParams prints params as name=value, sorted by name.
func briefParams(p map[string]any) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteByte('(')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%s", k, space.Format(p[k]))
	}
	b.WriteByte(')')
	return b.String()
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
