package study

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/boaopt/boa/storage"
)

// Objective evaluates one trial and returns its value in the user's sense.
// It may set t.Metrics and call t.Report while it runs. To stop a trial
// early (Optuna's TrialPruned) it returns its last intermediate value with
// ErrPruned: the trial is PRUNED with that value. It decides so itself, or
// asks the study's pruner after each report (t.ShouldPrune). In a
// multi-objective study it sets t.Values, one value per objective in the
// order of Study.Objectives, and the value it returns is not used
// (Optuna's objective returns a tuple).
type Objective func(ctx context.Context, t *Trial) (float64, error)

// ErrPruned, returned (or wrapped) by an Objective with a value, says the
// trial was stopped early: it is PRUNED with that value, not FAILED.
var ErrPruned = errors.New("trial pruned")

// OptimizeOptions tune Optimize.
type OptimizeOptions struct {
	Workers int         // trials run at once (goroutines); <= 0 means 1
	OnTrial func(Trial) // called after each trial is told; calls never overlap
	// Timeout ends the run once it has passed since Optimize began, as
	// Optuna's optimize(timeout=): no trial starts after it, the running
	// ones finish. 0 means none.
	Timeout time.Duration
	// Stop is called after each trial (after OnTrial, never overlapping
	// it): an error ends the run as Timeout does, and Optimize returns
	// it. nil means never.
	Stop func(Trial) error
}

// Optimize runs up to n more trials of objective (n <= 0: until the
// study's budget is used up, or, for a study without a budget, until ctx
// is done, o.Timeout has passed or o.Stop says so; Optuna's optimize
// with n_trials=None). Each worker asks for a trial, evaluates it
// while sending heartbeats, and tells the result; the trials the other
// workers are running are pending for the sampler. An error, panic, NaN or
// Inf from the objective fails that trial only, but when every trial it
// ran failed, Optimize returns an *AllFailedError (ErrAllFailed) with the
// most common reason. Optimize stops early with
// an error when the sampler or the storage fails, or when ctx is done;
// trials interrupted by ctx are FAILED "interrupted: <cause>" and re-queued
// (one whose result the storage could not then record stays RUNNING, to
// be reaped and re-run after the lease, and the error names it beside the
// cause).
func (s *Study) Optimize(ctx context.Context, objective Objective, n int, o OptimizeOptions) error {
	if objective == nil {
		// Called, it would panic in every trial: n FAILED trials of the budget.
		return s.errorf("Optimize needs an objective, got nil")
	}
	workers := max(1, o.Workers)
	var deadline time.Time
	if o.Timeout > 0 {
		deadline = time.Now().Add(o.Timeout)
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		mu      sync.Mutex // guards claimed, late and stopped, serialises OnTrial and Stop
		claimed int
		late    []error // failures after ctx was done, which cancel would drop
		stopped error   // o.Stop's verdict: no more trials, the running ones finish
		ran     []Trial // the trials told, in order (for AllFailed)
		wg      sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if ctx.Err() != nil {
			// A result not recorded once interrupted (tellPatiently's
			// error names it) must not be hidden behind the cause.
			late = append(late, err)
		}
		cancel(err)
	}
	claim := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if (n > 0 && claimed >= n) || ctx.Err() != nil || stopped != nil ||
			(!deadline.IsZero() && time.Now().After(deadline)) {
			return false
		}
		claimed++
		return true
	}
	for range workers {
		wg.Go(func() {
			for claim() {
				var t Trial
				err := s.patiently(ctx, func() (err error) {
					t, err = s.Ask(ctx)
					return err
				})
				if errors.Is(err, ErrBudget) {
					return
				}
				if err != nil {
					cancel(err)
					return
				}
				done, err := s.run(ctx, objective, &t)
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				ran = append(ran, Trial{Number: done.Number, State: done.State, Reason: done.Reason, LogPath: done.LogPath})
				if o.OnTrial != nil {
					o.OnTrial(done)
				}
				if o.Stop != nil && stopped == nil {
					stopped = o.Stop(done)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	cause := context.Cause(ctx)
	if cause != nil && len(late) > 0 {
		return errors.Join(append([]error{cause}, late...)...)
	}
	if cause != nil {
		return cause
	}
	if stopped != nil {
		return stopped
	}
	return AllFailed(s.rec.Name, ran)
}

// run evaluates one trial with heartbeats and tells its result. It
// returns the finished trial as the objective saw it.
func (s *Study) run(ctx context.Context, objective Objective, t *Trial) (Trial, error) {
	// Heartbeats go on until the result is recorded, through an
	// interruption too: while a tell is retried the trial must not be
	// taken for dead.
	stop := s.heartbeat(context.WithoutCancel(ctx), t.ID)
	defer stop()
	if t.Metrics == nil {
		t.Metrics = map[string]float64{}
	}
	v, err := evaluate(ctx, objective, t)
	r := Result{Value: v, Values: t.Values, Err: err, Metrics: t.Metrics}
	switch {
	case errors.Is(err, ErrPruned):
		r.Err, r.Pruned = nil, true
	case err != nil && ctx.Err() != nil:
		r.Err, r.Requeue = fmt.Errorf("interrupted: %w", context.Cause(ctx)), true
	}
	tctx := context.WithoutCancel(ctx) // record the result even when interrupted
	if err := s.tellPatiently(ctx, t, r); err != nil && !errors.Is(err, storage.ErrFinished) {
		return Trial{}, err
	}
	// ErrFinished: the trial was taken for lost meanwhile (no heartbeat
	// for a lease: the machine was suspended, or the storage out of
	// reach), failed as stale and its configuration queued again, which
	// the result cannot undo. The other trials go on; this one shows as
	// FAILED.
	rec, err := s.store.GetTrial(tctx, t.ID)
	if err != nil {
		return Trial{}, s.errorf("trial %d: %w", t.Number, err)
	}
	return s.trial(rec)
}

// tellPatiently tells r, patiently. Once ctx is done it tries once more
// and gives up, with an error that names the result, so that it is not
// lost from sight.
func (s *Study) tellPatiently(ctx context.Context, t *Trial, r Result) error {
	tctx := context.WithoutCancel(ctx)
	retried := false
	err := s.patiently(ctx, func() error {
		err := s.Tell(tctx, t.ID, r)
		if retried && errors.Is(err, storage.ErrFinished) {
			// An earlier try may have been recorded although it
			// failed (its commit acknowledged late): if so, it stands.
			err = s.toldAlready(tctx, t, r, err)
		}
		retried = true
		return err
	})
	if err != nil {
		return fmt.Errorf("trial %d %v: its result (%s) was not recorded: %w", t.Number, t.Params, describeResult(r), err)
	}
	return nil
}

// patiently calls try until it succeeds or fails for good (not
// transient), ctx is done or the lease has passed, waiting 50 ms doubling
// to 5 s between tries: a storage briefly down (a PostgreSQL restart, a
// SQLite file locked for long) must not end a run, and after the lease
// another process may have taken this one's trials for dead.
func (s *Study) patiently(ctx context.Context, try func() error) error {
	deadline := time.Now().Add(s.lease)
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		err := try()
		if err == nil || !transient(err) || ctx.Err() != nil || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}

// toldAlready returns nil when trial t holds what Tell records for r (and
// so an interrupted trial its re-run, added in the same transaction);
// otherwise it returns err.
func (s *Study) toldAlready(ctx context.Context, t *Trial, r Result, err error) error {
	rec, gerr := s.store.GetTrial(ctx, t.ID)
	f := s.finish(r)
	if gerr != nil || rec.State != f.State || rec.Reason != f.Reason || (rec.Value == nil) != (f.Value == nil) ||
		rec.Value != nil && *rec.Value != *f.Value {
		return err
	}
	return nil
}

// transient reports whether an ask or a tell failed for a reason that may
// pass: the storage's, but not its refusals, nor the budget's end, nor
// the sampler's or the stored history's (lasting).
func transient(err error) bool {
	for _, p := range []error{ErrBudget, storage.ErrInvalid, storage.ErrFinished, storage.ErrNotFound, storage.ErrNotRunning} {
		if errors.Is(err, p) {
			return false
		}
	}
	var l lasting
	return !errors.As(err, &l)
}

// lasting marks an error that retrying cannot change although it is not
// the storage's refusal: a sampler's, or a stored trial boa cannot read.
type lasting struct{ error }

func (e lasting) Unwrap() error { return e.error }

func describeResult(r Result) string {
	if r.Err != nil {
		return "FAILED: " + r.Err.Error()
	}
	if r.Pruned {
		return fmt.Sprintf("PRUNED at value %v", r.Value)
	}
	return fmt.Sprintf("value %v", r.Value)
}

// heartbeat beats for trial id every third of the lease until stopped.
func (s *Study) heartbeat(ctx context.Context, id int64) (stop func()) {
	return every(ctx, max(s.lease/3, 10*time.Millisecond), func(ctx context.Context) {
		_ = s.store.Heartbeat(ctx, id) // a missed beat is retried at the next tick
	})
}

// every calls f every interval until stopped or ctx is done.
func every(ctx context.Context, interval time.Duration, f func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				f(ctx)
			}
		}
	}()
	return func() { cancel(); <-done }
}

// evaluate calls the objective and turns a panic into an error; a
// misread parameter's (*ParamAccessError) is its message alone, which
// says what to fix.
func evaluate(ctx context.Context, objective Objective, t *Trial) (v float64, err error) {
	defer func() {
		r := recover()
		if pe, ok := r.(*ParamAccessError); ok {
			err = pe
		} else if r != nil {
			err = fmt.Errorf("objective panicked: %v", r)
		}
	}()
	return objective(ctx, t)
}
