package study

import (
	"context"
	"fmt"
	"sync"
)

// Objective evaluates one trial and returns its value in the user's sense.
type Objective func(ctx context.Context, t Trial) (float64, error)

// OptimizeOptions tune Optimize.
type OptimizeOptions struct {
	Workers int         // trials run at once (goroutines); <= 0 means 1
	OnTrial func(Trial) // called after each trial is told; calls never overlap
}

// Optimize runs n more trials of objective. Each worker asks for a trial,
// evaluates it and tells the result; the trials the other workers are
// running are pending for the sampler. An error, panic, NaN or Inf from
// the objective fails that trial only. Optimize returns early with an
// error when the sampler fails or ctx is done; trials interrupted by ctx
// are FAILED with the reason "interrupted".
func (s *Study) Optimize(ctx context.Context, objective Objective, n int, o OptimizeOptions) error {
	workers := max(1, o.Workers)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var (
		mu      sync.Mutex // guards claimed and serialises OnTrial
		claimed int
		wg      sync.WaitGroup
	)
	claim := func() bool {
		mu.Lock()
		defer mu.Unlock()
		if claimed >= n || ctx.Err() != nil {
			return false
		}
		claimed++
		return true
	}
	for range workers {
		wg.Go(func() {
			for claim() {
				t, err := s.Ask(ctx)
				if err != nil {
					cancel(err)
					return
				}
				v, err := evaluate(ctx, objective, t)
				if err != nil && ctx.Err() != nil {
					err = fmt.Errorf("interrupted: %w", context.Cause(ctx))
				}
				if err := s.Tell(t.Number, v, err); err != nil {
					cancel(err)
					return
				}
				if o.OnTrial != nil {
					s.mu.Lock()
					done := s.trials[t.Number].clone()
					s.mu.Unlock()
					mu.Lock()
					o.OnTrial(done)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// evaluate calls the objective and turns a panic into an error.
func evaluate(ctx context.Context, objective Objective, t Trial) (v float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("objective panicked: %v", r)
		}
	}()
	return objective(ctx, t)
}
