package storage

import (
	"context"
	"errors"
	"testing"
)

// TestPollLockDeadlineDuringTry: a context that ends while the lease is
// held makes Lock fail with ErrLocked, also when the end is noticed by a
// try (a storage call with the ended context) rather than by the wait.
func TestPollLockDeadlineDuringTry(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tries := 0
	err := pollLock(ctx, 1, "waiter", func() (bool, error) {
		tries++
		if tries == 1 {
			return false, nil // held by another
		}
		cancel() // the deadline lapses as the retry starts
		return false, ctx.Err()
	})
	if !errors.Is(err, ErrLocked) || !errors.Is(err, context.Canceled) {
		t.Fatalf("pollLock = %v, want ErrLocked and Canceled", err)
	}
	// A try that fails at once is the storage's failure, not ErrLocked.
	broken := errors.New("database gone")
	if err := pollLock(t.Context(), 1, "waiter", func() (bool, error) { return false, broken }); err != broken {
		t.Fatalf("pollLock with a failing store = %v, want %v", err, broken)
	}
}
