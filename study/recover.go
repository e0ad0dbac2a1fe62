package study

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/storage"
)

// deadScanEvery bounds how often one Study looks for RUNNING trials
// whose process is provably gone. Each look reads the study's trials; the
// lease catches what a look misses.
var deadScanEvery = 2 * time.Second // a variable for tests

// deadScan is when the study last looked for trials of dead processes.
type deadScan struct {
	mu sync.Mutex
	at time.Time
}

// reap fails and re-queues the study's lost trials: those without a
// heartbeat for the lease, and those whose process is provably gone
// (package internal/proc: this host, and no process with its pid and
// start time), which need not wait for the lease: a `boa run --resume`
// right after a kill -9 re-runs the killed run's trials at once. A
// process on another host, in another container, or named in the older
// "host:pid" form is never provably gone: its trials keep the lease rule.
func (s *Study) reap(ctx context.Context) error {
	before := time.Now().Add(-s.lease)
	s.scan.mu.Lock()
	if time.Since(s.scan.at) < deadScanEvery {
		s.scan.mu.Unlock()
		_, err := s.store.Reap(ctx, s.rec.ID, before)
		return err
	}
	// Held while reaping: the other workers of this Study then claim the
	// re-queued trials rather than ask for new ones meanwhile.
	defer s.scan.mu.Unlock()
	dead, err := s.deadOwners(ctx)
	if err != nil {
		return err
	}
	if _, err := s.store.Reap(ctx, s.rec.ID, before, dead...); err != nil {
		return err
	}
	s.scan.at = time.Now()
	return nil
}

// deadOwners returns the workers of the study's RUNNING trials that are
// provably gone. This process is alive, whatever name SetWorker gave it.
func (s *Study) deadOwners(ctx context.Context) ([]string, error) {
	// The trials as this Study keeps them (records): the states and
	// workers read here change only with a change number. A full read
	// instead made a study's first ask read all of it twice (at 20,000
	// SQLite trials, over the 300 ms a load may take) and every ask
	// after deadScanEvery once more.
	recs, err := s.records(ctx)
	if err != nil {
		return nil, err
	}
	var dead, seen []string
	for _, r := range recs {
		if r.State != storage.Running || r.Worker == s.worker || slices.Contains(seen, r.Worker) {
			continue
		}
		seen = append(seen, r.Worker)
		if proc.Of(r.Worker) == proc.Dead {
			dead = append(dead, r.Worker)
		}
	}
	return dead, nil
}

// Held describes the study's RUNNING trials as a run that leaves them
// sees them (its own have ended, so other processes hold them, or ones
// that are gone but not provably so: another host): which, who holds
// them, and when the last of them is re-run by the next ask if its
// process has died: its last heartbeat plus the lease.
type Held struct {
	Trials  []int     // their numbers
	Workers []string  // the processes that hold them, as recorded
	Until   time.Time // the latest lease among them: all are recovered after it if their heartbeats stop
}

// Running returns the study's RUNNING trials; Trials is empty when there
// are none.
func (s *Study) Running(ctx context.Context) (Held, error) {
	recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
	if err != nil {
		return Held{}, s.errorf("load trials: %w", err)
	}
	var h Held
	for _, r := range recs {
		if r.State != storage.Running {
			continue
		}
		h.Trials = append(h.Trials, r.Number)
		if !slices.Contains(h.Workers, r.Worker) {
			h.Workers = append(h.Workers, r.Worker)
		}
		if until := r.Heartbeat.Add(s.lease); until.After(h.Until) {
			h.Until = until
		}
	}
	return h, nil
}
