package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/boaopt/boa/client"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/space"
)

// Server is what a worker needs of boa's HTTP API; *client.Client is one.
type Server interface {
	Study(ctx context.Context, name string) (client.Study, error)
	Ask(ctx context.Context, study string, n int, worker string) (client.Batch, error)
	Report(ctx context.Context, id, step int64, value float64) (prune bool, err error)
	Heartbeat(ctx context.Context, id int64) error
	Tell(ctx context.Context, id int64, r client.Result) error
}

// Options configure Run.
type Options struct {
	Study   string         // the study's name
	Server  string         // the server's URL, as messages name it
	Name    string         // the worker's name, recorded with its trials
	Command runner.Command // run once per trial
	// Trials stops the worker after this many trials; 0 runs until the
	// study's budget is used up.
	Trials int
	// Heartbeat is the interval of the heartbeats while a trial runs and
	// until its result is told; at most a third of the server's lease is
	// used.
	Heartbeat time.Duration
	// Wait, once the budget is used up, keeps asking until no trial runs
	// anywhere, to take over the trials of a worker that crashed (they
	// are re-queued once their lease lapses).
	Wait bool
	// Log receives one line per event (a trial's outcome, a warning); nil
	// discards them. Calls may overlap.
	Log func(format string, args ...any)
}

// ErrInterrupted ends a worker whose context was cancelled (Ctrl-C).
var ErrInterrupted = errors.New("interrupted")

// worker is one Run.
type worker struct {
	o   Options
	c   Server
	log func(format string, args ...any)
	// sp is the study's space, which writes a trial's values by kind
	// (Space.Export): a server that stored a Float at 1 as 1 (before
	// floats were written 1.0) must not pass the command an integer.
	sp *space.Space
	// objectives names the study's objectives, which a command's
	// BOA_RESULT line must give a value each (runner.Result.Objectives).
	objectives []string
	fidelity   *runner.Fidelity // the study's, at its max; nil when it has none
}

// Run asks c for trials of study o.Study and runs o.Command for each
// until the study's budget is used up (and, with o.Wait, no trial runs
// anywhere) or o.Trials have run. It returns nil then, ErrInterrupted when
// ctx ends, and an error when the server refuses the worker or cannot be
// reached for longer than the client retries.
func Run(ctx context.Context, c Server, o Options) error {
	if o.Heartbeat <= 0 {
		return fmt.Errorf("worker: the heartbeat interval must be positive, got %v", o.Heartbeat)
	}
	w := &worker{o: o, c: c, log: o.Log}
	if w.log == nil {
		w.log = func(string, ...any) {}
	}
	st, err := c.Study(ctx, o.Study)
	if err != nil {
		return w.fatal(ctx, err)
	}
	var sp space.Space
	if err := json.Unmarshal(st.Space, &sp); err != nil {
		return fmt.Errorf("study %q: the server sent a space this boa cannot read: %w", o.Study, err)
	}
	w.sp = &sp
	w.objectives = []string{"value"}
	if len(st.Objectives) > 0 {
		w.objectives = nil
		for _, o := range st.Objectives {
			w.objectives = append(w.objectives, o.Name)
		}
	}
	var extra []string
	if f := st.Fidelity; f != nil {
		w.fidelity = &runner.Fidelity{Name: f.Name, Value: f.Max}
		extra = append(extra, f.Name)
	}
	if err := runner.ValidateSpace(o.Command, &sp, extra...); err != nil {
		return err
	}
	if err := o.Command.Check(); err != nil {
		return err
	}
	w.log("study %s on %s as %s: %s", o.Study, o.Server, o.Name, strings.Join(o.Command.Args, " "))

	done, waited := 0, false
	for o.Trials == 0 || done < o.Trials {
		b, err := c.Ask(ctx, o.Study, 1, o.Name)
		if err != nil {
			return w.fatal(ctx, err)
		}
		if len(b.Trials) == 0 {
			if !o.Wait || b.Pending == 0 {
				w.log("the study's budget is used up; %d trials run here", done)
				return nil
			}
			if !waited {
				w.log("the study's budget is used up; waiting for %d unfinished trials (a crashed one is re-queued)", b.Pending)
				waited = true
			}
			// Stale trials are reaped by asks, so ask often enough to take
			// over a crashed worker's trial soon after its lease lapses.
			if err := sleep(ctx, min(max(b.Lease/4, 250*time.Millisecond), 5*time.Second)); err != nil {
				return ErrInterrupted
			}
			continue
		}
		hb := o.Heartbeat
		if b.Lease > 0 {
			hb = min(hb, b.Lease/3)
		}
		if err := w.run(ctx, b.Trials[0], hb); err != nil {
			return err
		}
		done++
	}
	w.log("ran %d trials (--trials)", done)
	return nil
}

// fatal words an error that ends the worker.
func (w *worker) fatal(ctx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return ErrInterrupted
	case client.StatusOf(err) == http.StatusNotFound:
		return fmt.Errorf("study %q not found on %s (create it with POST /api/v1/studies first)", w.o.Study, w.o.Server)
	case client.StatusOf(err) == http.StatusUnauthorized:
		return fmt.Errorf("%w (set BOA_TOKEN or --token to the server's token)", err)
	}
	return err
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
