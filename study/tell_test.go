package study

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/storage"
)

// sqliteStudy is a study on a real SQLite file, with the given budget,
// and a connection of the test's own to the file, for SQL that injects
// faults.
func sqliteStudy(t *testing.T, budget int) (*Study, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "boa.db")
	store, err := storage.OpenSQLite(bg, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := Create(bg, store, Spec{Name: "s", Space: testSpace(t), Sampler: "random", Seed: 1, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return s, db
}

// faultySQLite is a study on a real SQLite file whose trials cannot be
// added nor finished while fault() is on: a trigger makes SQLite itself refuse the
// update, as a storage in trouble would (a full disk, a lost server).
func faultySQLite(t *testing.T, lease time.Duration) (s *Study, fault func(on bool)) {
	t.Helper()
	s, db := sqliteStudy(t, 2)
	s.SetLease(lease)
	for _, q := range []string{
		`CREATE TABLE fault (on_ INTEGER)`,
		`CREATE TRIGGER fault BEFORE UPDATE OF state ON trials
		 WHEN NEW.state <> 'RUNNING' AND EXISTS (SELECT 1 FROM fault)
		 BEGIN SELECT RAISE(ABORT, 'injected storage fault'); END`,
		`CREATE TRIGGER fault_insert BEFORE INSERT ON trials
		 WHEN EXISTS (SELECT 1 FROM fault)
		 BEGIN SELECT RAISE(ABORT, 'injected storage fault'); END`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	return s, func(on bool) {
		q := `DELETE FROM fault`
		if on {
			q = `INSERT INTO fault VALUES (1)`
		}
		if _, err := db.Exec(q); err != nil {
			t.Error(err)
		}
	}
}

// TestOptimizeRetriesATellTheStorageRefuses: a storage that fails for a
// while when a trial ends does not lose the result nor stop the study.
func TestOptimizeRetriesATellTheStorageRefuses(t *testing.T) {
	s, fault := faultySQLite(t, time.Minute)
	err := s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
		if tr.Number == 0 {
			fault(true)
			time.AfterFunc(300*time.Millisecond, func() { fault(false) })
		}
		return float64(tr.Number) + 0.5, nil
	}, 0, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := trials(t, s)
	if len(ts) != 2 || ts[0].State != Complete || ts[0].Value != 0.5 || ts[1].State != Complete {
		t.Fatalf("trials %+v; want 2 COMPLETE, the first with 0.5", ts)
	}
}

// TestOptimizeWaitsForAStorageThatCannotAsk: a storage that fails for a
// while when a trial is asked for (a database restarting) delays the
// study; it does not end it.
func TestOptimizeWaitsForAStorageThatCannotAsk(t *testing.T) {
	s, fault := faultySQLite(t, time.Minute)
	fault(true)
	time.AfterFunc(300*time.Millisecond, func() { fault(false) })
	err := s.Optimize(bg, func(context.Context, *Trial) (float64, error) { return 1, nil }, 0, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ts := trials(t, s); len(ts) != 2 || ts[0].State != Complete || ts[1].State != Complete {
		t.Fatalf("trials %+v; want 2 COMPLETE", ts)
	}
}

// TestOptimizeNamesAResultItCannotRecord: when the storage keeps failing
// past the lease, Optimize stops with an error that gives the result.
func TestOptimizeNamesAResultItCannotRecord(t *testing.T) {
	s, fault := faultySQLite(t, 300*time.Millisecond)
	err := s.Optimize(bg, func(context.Context, *Trial) (float64, error) {
		fault(true)
		return 0.25, nil
	}, 0, OptimizeOptions{})
	if err == nil || !strings.Contains(err.Error(), "its result (value 0.25) was not recorded") || !strings.Contains(err.Error(), "injected storage fault") {
		t.Fatalf("err = %v; want one naming the result and the storage's error", err)
	}
}

// TestInterruptedReRunIsRequeuedAgain: an interruption says nothing about
// the configuration, so a re-run that is interrupted is re-queued too, and
// the budget still counts the configuration once.
func TestInterruptedReRunIsRequeuedAgain(t *testing.T) {
	s := newStudy(t, Options{Seed: 7, Budget: 2})
	interrupt := func(number int) {
		ctx, cancel := context.WithCancel(bg)
		defer cancel()
		err := s.Optimize(ctx, func(ctx context.Context, tr *Trial) (float64, error) {
			if tr.Number == number {
				cancel()
				<-ctx.Done()
				return 0, ctx.Err()
			}
			return 1, nil
		}, 0, OptimizeOptions{})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	}
	interrupt(0) // trial 0 FAILED, trial 1 re-runs it
	interrupt(1) // trial 1 FAILED, trial 2 re-runs it
	if err := s.Optimize(bg, func(context.Context, *Trial) (float64, error) { return 1, nil }, 0, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	ts := trials(t, s)
	if len(ts) != 4 || ts[1].RetryOf != 0 || ts[2].RetryOf != 1 || ts[2].State != Complete || ts[2].Params["x"] != ts[0].Params["x"] {
		t.Fatalf("trials %+v; want 4, trial 2 completing the configuration of trial 0 through trial 1", ts)
	}
	if used(mustRecords(t, s)) != 2 {
		t.Fatalf("budget used %d, want 2", used(mustRecords(t, s)))
	}
}

// TestTellRequeue: Result.Requeue re-queues a failure whatever its error.
func TestTellRequeue(t *testing.T) {
	s := newStudy(t, Options{Seed: 7, Budget: 2})
	tr, err := s.Ask(bg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(bg, tr.ID, Result{Err: errors.New("worker shut down"), Requeue: true}); err != nil {
		t.Fatal(err)
	}
	if ts := trials(t, s); len(ts) != 2 || ts[1].State != Waiting || ts[1].RetryOf != 0 {
		t.Fatalf("trials %+v; want trial 1 WAITING, re-running trial 0", ts)
	}
}

// TestTellKeepsUnstorableReasons: a reason or metric name with a NUL byte
// or invalid UTF-8 (a crashing program's output) is stored with U+FFFD in
// their place, in every storage, instead of failing the tell.
func TestTellKeepsUnstorableReasons(t *testing.T) {
	stores := map[string]func(t *testing.T) storage.Storage{
		"memory": func(*testing.T) storage.Storage { return storage.NewMemory() },
		"sqlite": func(t *testing.T) storage.Storage {
			st, err := storage.OpenSQLite(bg, filepath.Join(t.TempDir(), "boa.db"))
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
		"postgres": func(t *testing.T) storage.Storage {
			url := os.Getenv("BOA_TEST_POSTGRES_URL")
			if url == "" {
				t.Skip("BOA_TEST_POSTGRES_URL is not set: no PostgreSQL server to test against")
			}
			st, err := storage.Open(bg, url)
			if err != nil {
				t.Fatal(err)
			}
			return st
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			store := open(t)
			defer store.Close()
			s, err := Create(bg, store, Spec{Name: "unstorable-" + time.Now().Format("150405.000000"), Space: testSpace(t), Sampler: "random", Budget: 2})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := s.Ask(bg)
			b, _ := s.Ask(bg)
			if err := s.Tell(bg, a.ID, Result{Err: errors.New("core\x00dumped caf\xe9")}); err != nil {
				t.Fatal(err)
			}
			if err := s.Tell(bg, b.ID, Result{Value: 1, Metrics: map[string]float64{"m\x00": 2}}); err != nil {
				t.Fatal(err)
			}
			ts := trials(t, s)
			if ts[0].Reason != "core\uFFFDdumped caf\uFFFD" || ts[1].Metrics["m\uFFFD"] != 2 {
				t.Fatalf("reason %q, metrics %v", ts[0].Reason, ts[1].Metrics)
			}
		})
	}
}

// slowSampler suggests at random after a delay, saying when it starts.
type slowSampler struct {
	delay   time.Duration
	started chan struct{}
}

func (s *slowSampler) Name() string { return "random" }
func (s *slowSampler) Suggest(_ context.Context, h *sampler.History, rng *rand.Rand) ([]float64, error) {
	close(s.started)
	time.Sleep(s.delay)
	return h.Space.Sample(rng), nil
}

// TestSuggestionLeaseOutlivesASlowSuggestion: a suggestion that takes
// longer than the suggestion lease keeps it by renewing it, so another
// process's suggestion waits and then sees it as pending. Without the
// renewal the other took the lease over and suggested blind to it.
func TestSuggestionLeaseOutlivesASlowSuggestion(t *testing.T) {
	defer func(d time.Duration) { suggestLease = d }(suggestLease)
	suggestLease = 150 * time.Millisecond
	store := storage.NewMemory()
	a, err := Create(bg, store, Spec{Name: "s", Space: testSpace(t), Sampler: "random", Budget: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(bg, store, "s")
	if err != nil {
		t.Fatal(err)
	}
	slow := &slowSampler{delay: 4 * suggestLease, started: make(chan struct{})}
	a.sampler = slow
	rec := &recorder{}
	b.sampler = rec
	asked := make(chan error)
	go func() { _, err := a.Ask(bg); asked <- err }()
	<-slow.started
	if _, err := b.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if err := <-asked; err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.pending, []int{1}) {
		t.Fatalf("the second suggestion saw %v pending trials, want [1]: it did not wait for the slow one", rec.pending)
	}
}

// TestInterruptedTrialIsNotLostWhenItsRequeueFails: a trial interrupted
// (Ctrl-C) while the storage refuses new trials is recorded in one step
// with its re-run, or not at all. Before, Tell recorded it FAILED
// "interrupted" and then failed to add its re-run; the run stopped (its
// context was done) and the configuration was never run again: neither a
// resume nor a reap re-queues a FAILED trial. A process killed between
// the two writes lost it the same way.
func TestInterruptedTrialIsNotLostWhenItsRequeueFails(t *testing.T) {
	s, db := sqliteStudy(t, 2)
	s.SetLease(200 * time.Millisecond)
	for _, q := range []string{
		`CREATE TABLE fault (on_ INTEGER)`,
		`CREATE TRIGGER fault_insert BEFORE INSERT ON trials WHEN EXISTS (SELECT 1 FROM fault)
		 BEGIN SELECT RAISE(ABORT, 'injected storage fault'); END`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(bg)
	var x any
	err := s.Optimize(ctx, func(ctx context.Context, tr *Trial) (float64, error) {
		x = tr.Params["x"]
		if _, err := db.Exec(`INSERT INTO fault VALUES (1)`); err != nil {
			t.Error(err)
		}
		cancel()
		return 0, ctx.Err()
	}, 0, OptimizeOptions{})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "was not recorded: ") {
		t.Fatalf("interrupted run: err = %v, want context.Canceled and the result that was not recorded", err)
	}
	if _, err := db.Exec(`DELETE FROM fault`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the lease passes
	var xs []any
	err = s.Optimize(bg, func(_ context.Context, tr *Trial) (float64, error) {
		xs = append(xs, tr.Params["x"])
		return 1, nil
	}, 0, OptimizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(xs) != 2 || xs[0] != x {
		t.Fatalf("resumed run evaluated x = %v; want 2 trials, the first re-running the interrupted x = %v\n%+v", xs, x, trials(t, s))
	}
}

// TestOptimizeGoesOnAfterATrialTakenForLost: a trial failed as stale
// while it still ran (the machine was suspended past the lease, and
// another process reaped it) cannot record its result; the run goes on
// with the other trials instead of stopping them all.
func TestOptimizeGoesOnAfterATrialTakenForLost(t *testing.T) {
	s := newStudy(t, Options{Seed: 1})
	err := s.Optimize(bg, func(ctx context.Context, tr *Trial) (float64, error) {
		if tr.Number == 0 { // what another process's reaper does
			if err := s.Storage().FinishTrial(ctx, tr.ID, storage.Finish{State: storage.Failed, Reason: "stale: no heartbeat"}); err != nil {
				return 0, err
			}
		}
		return 1, nil
	}, 3, OptimizeOptions{})
	if err != nil {
		t.Fatalf("Optimize: %v", err)
	}
	ts := trials(t, s)
	if len(ts) != 3 || ts[0].State != Failed || ts[1].State != Complete || ts[2].State != Complete {
		t.Fatalf("want trial 0 FAILED as stale and two more COMPLETE: %+v", ts)
	}
}

// TestSuggestionLeaseReleasedAfterAnOutage: a suggestion lease the storage
// could not release when the ask ended (a database restart) is released
// as soon as the storage is back, not left to expire: until then every
// other process's asks wait (2 minutes, measured with a PostgreSQL
// restart during a suggestion).
func TestSuggestionLeaseReleasedAfterAnOutage(t *testing.T) {
	s, db := sqliteStudy(t, 0)
	for _, q := range []string{
		`CREATE TABLE fault (on_ INTEGER)`,
		`CREATE TRIGGER fault BEFORE DELETE ON study_leases WHEN EXISTS (SELECT 1 FROM fault)
		 BEGIN SELECT RAISE(ABORT, 'injected storage fault'); END`,
		`INSERT INTO fault VALUES (1)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Ask(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM fault`); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	lease, err := s.Storage().Lock(ctx, s.ID(), "another process", time.Minute)
	if err != nil {
		t.Fatalf("the lease was not released once the storage was back: %v", err)
	}
	_ = lease.Unlock()
}
