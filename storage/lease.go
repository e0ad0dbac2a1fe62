package storage

import (
	"context"
	"fmt"
	"time"
)

// The suggestion lease serialises samplers of one study across processes so
// each sees the trials the others just added (DESIGN.md §1: pending trials
// are part of the history). It is a lease, not a lock held by a connection:
// a holder that dies simply lets it expire, and the next caller takes over.

// Polling bounds: the first retries are quick because a suggestion under the
// lease typically takes milliseconds; later ones back off so that many
// waiting workers do not hammer a shared database.
const (
	pollMin = 1 * time.Millisecond
	pollMax = 50 * time.Millisecond
)

// pollLock calls try until it takes the lease, fails, or ctx ends.
func pollLock(ctx context.Context, studyID int64, holder string, try func() (bool, error)) error {
	wait := pollMin
	var timer *time.Timer
	for {
		ok, err := try()
		if err != nil || ok {
			return err
		}
		if timer == nil {
			timer = time.NewTimer(wait)
			defer timer.Stop()
		} else {
			timer.Reset(wait)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("storage: lock study %d for %q: %w: %w", studyID, holder, ErrLocked, ctx.Err())
		case <-timer.C:
		}
		wait = min(2*wait, pollMax)
	}
}

func leaseLostError(studyID int64, holder string) error {
	return fmt.Errorf("storage: unlock study %d for %q: lease expired and was taken over: %w", studyID, holder, ErrLocked)
}
