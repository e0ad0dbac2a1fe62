//go:build linux

package runner

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The command reports one value per step until told to stop; the pruner
// stops it at step 2, and the trial keeps that step's value.
func TestRunPrunable(t *testing.T) {
	t.Parallel()
	script := `for s in 0 1 2 3 4 5 6 7 8 9; do echo "BOA_REPORT $s $s.5"; sleep 0.2; done; echo BOA_RESULT 1`
	var seen []Report
	res, err := RunPrunable(context.Background(), sh(script), Trial{}, func(_ context.Context, r Report) bool {
		seen = append(seen, r)
		return r.Step == 2
	})
	if !errors.Is(err, ErrPruned) || res.Value != 2.5 {
		t.Fatalf("RunPrunable = value %v, %v; want 2.5, ErrPruned", res.Value, err)
	}
	if len(seen) < 3 || len(seen) > 4 {
		t.Errorf("report saw %v; want the reports up to the pruning (a fourth may be on its way)", seen)
	}
}

// Without pruning, RunPrunable is Run.
func TestRunPrunableCompletes(t *testing.T) {
	t.Parallel()
	res, err := RunPrunable(context.Background(), sh(`echo "BOA_REPORT 0 3"; echo BOA_RESULT 0.25`), Trial{}, func(context.Context, Report) bool { return false })
	if err != nil || res.Value != 0.25 || len(res.Reports) != 1 {
		t.Fatalf("RunPrunable = %+v, %v; want value 0.25 and one report", res, err)
	}
}

// A trial stopped because ctx ended is interrupted, not pruned, even if
// the pruner asked too.
func TestRunPrunableInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := RunPrunable(ctx, sh(`echo "BOA_REPORT 0 1"; sleep 10; echo BOA_RESULT 1`), Trial{}, func(ctx context.Context, _ Report) bool {
		<-ctx.Done()
		return true
	})
	if errors.Is(err, ErrPruned) || !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
}
