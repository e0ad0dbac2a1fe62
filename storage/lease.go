package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
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

// pollLock calls try until it takes the lease, fails, or ctx ends. Once
// the lease was seen held, an end of ctx is ErrLocked (with ctx's error)
// also when try is the one to notice it: the wait and the try race for a
// deadline, and a try that lost returned the bare context error, which a
// caller could not tell from a storage failure (TestMemory/LockCancel
// failed so about once in 15 runs under -race).
func pollLock(ctx context.Context, studyID int64, holder string, try func() (bool, error)) error {
	wait := pollMin
	var timer *time.Timer
	for waited := false; ; waited = true {
		ok, err := try()
		if err != nil && waited && ctx.Err() != nil {
			return fmt.Errorf("storage: lock study %d for %q: %w: %w", studyID, holder, ErrLocked, ctx.Err())
		}
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

// Lease is a suggestion lease taken by Storage.Lock.
type Lease struct {
	renew    func(context.Context) error
	unlock   func() error
	mu       sync.Mutex
	released bool
}

// Renew extends the lease to its ttl from now, as a heartbeat does a
// trial's, for a holder that needs it longer than the ttl. It reports
// ErrLocked when the lease expired and was taken over meanwhile: whatever
// the holder did under it since may have overlapped the new holder's work.
func (l *Lease) Renew(ctx context.Context) error { return l.renew(ctx) }

// Unlock releases the lease. It reports ErrLocked when the lease expired
// and was taken over meanwhile, and the storage's error when it could not
// release it (the database out of reach): then it may be called again.
// Calls after one that released the lease, or reported ErrLocked, return
// nil.
func (l *Lease) Unlock() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.released {
		return nil
	}
	err := l.unlock()
	l.released = err == nil || errors.Is(err, ErrLocked)
	return err
}

func leaseLostError(what string, studyID int64, holder string) error {
	return fmt.Errorf("storage: %s study %d for %q: lease expired and was taken over: %w", what, studyID, holder, ErrLocked)
}
