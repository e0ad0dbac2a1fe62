package worker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/space"
)

// errTrialLost cancels a trial the server no longer takes as running.
var errTrialLost = errors.New("the server no longer takes this trial as running")

// run runs one trial: CMD with heartbeats and reports, then tell. It
// returns an error only when the worker must stop.
func (w *worker) run(ctx context.Context, t client.Trial, every time.Duration) error {
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
	res, err := runner.RunPrunable(rctx, w.o.Command, runner.Trial{ID: t.ID, Number: t.Number, Study: w.o.Study, Params: w.sp.Export(t.Params), Fidelity: w.fidelity}, func(rctx context.Context, r runner.Report) bool {
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
		values, verr := res.Objectives(w.objectives)
		switch {
		case verr != nil:
			r = client.Result{State: "FAILED", Reason: verr.Error(), Metrics: res.Metrics}
		case len(values) > 1:
			r = client.Result{Values: values, Metrics: res.Metrics}
		default:
			r = client.Result{Value: values[0], Metrics: res.Metrics}
		}
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
		return ErrInterrupted
	}
	return nil
}

// heartbeat beats for t every interval until stopped; a 409 (the trial
// is no longer RUNNING) cancels the trial with errTrialLost.
func (w *worker) heartbeat(ctx context.Context, cancel context.CancelCauseFunc, t client.Trial, every time.Duration) (stop func()) {
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
