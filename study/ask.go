package study

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// Ask returns a RUNNING trial for this worker: a waiting one (re-queued
// after a crash) if there is one, else a new suggestion of the sampler.
// Running trials whose heartbeat lapsed, or whose process is provably
// gone (reap), are failed and re-queued first.
// Ask returns ErrBudget once the study has all the trials it wants.
func (s *Study) Ask(ctx context.Context) (Trial, error) {
	ts, err := s.AskBatch(ctx, 1)
	if err != nil {
		return Trial{}, err
	}
	return ts[0], nil
}

// AskBatch returns n RUNNING trials to be evaluated together (a
// synchronous batch): waiting trials first, then new suggestions. A
// sampler.BatchSampler proposes the new points jointly (SuggestBatch, e.g.
// CoCaBO's EXP3.M batch [000 Alg. 6]); any other sampler is asked once per
// point, each suggestion seeing the earlier ones as pending (gpbo's Kriging
// Believer). Fewer than n trials come back when the budget has fewer left;
// ErrBudget when it has none. AskBatch(ctx, 1) is Ask.
func (s *Study) AskBatch(ctx context.Context, n int) ([]Trial, error) {
	if n < 1 {
		return nil, s.errorf("ask for a batch of %d trials; need at least 1", n)
	}
	if err := s.reap(ctx); err != nil {
		return nil, s.errorf("reap stale trials: %w", err)
	}
	var out []Trial
	claimAll := func() error {
		for len(out) < n {
			t, ok, err := s.claim(ctx)
			if err != nil || !ok {
				return err
			}
			out = append(out, t)
		}
		return nil
	}
	if err := claimAll(); err != nil || len(out) == n {
		return out, err
	}
	lease, err := s.store.Lock(ctx, s.rec.ID, s.worker, suggestLease)
	if err != nil {
		return out, s.errorf("take the suggestion lease: %w", err)
	}
	defer s.release(lease)
	// A suggestion may take longer than the lease (a GP on thousands of
	// trials): renewed, the lease keeps the others waiting meanwhile. A
	// failed renewal is retried at the next tick.
	defer every(ctx, suggestLease/3, func(ctx context.Context) { _ = lease.Renew(ctx) })()
	// Only a multi-fidelity sampler reads reports, which no change number
	// follows (storage.TrialsChangedSince): it reads everything.
	load := func(ctx context.Context, _ int64) ([]storage.Trial, error) { return s.records(ctx) }
	if _, ok := s.sampler.(sampler.MultiFidelity); ok {
		load = s.store.Trials
	}
	recs, err := load(ctx, s.rec.ID)
	if err != nil {
		return out, s.errorf("load trials: %w", err)
	}
	k := n - len(out)
	if b := s.Budget(); b > 0 && b-used(recs) < k {
		if err := s.reloadBudget(ctx); err != nil {
			return out, err
		}
		if b := s.Budget(); b > 0 {
			k = min(k, b-used(recs))
		}
	}
	if k <= 0 {
		// Another worker may have re-queued a trial since the first claim.
		if err := claimAll(); err != nil || len(out) > 0 {
			return out, err
		}
		return nil, ErrBudget
	}
	h, err := s.history(recs)
	if err != nil {
		return out, lasting{err}
	}
	us, origins, err := s.suggest(ctx, h, k)
	if err != nil {
		return out, err
	}
	// Still the holder? Then nobody suggests for ttl from now. Otherwise
	// another process may have suggested meanwhile without seeing these
	// points, and adding them could duplicate its trials.
	if err := lease.Renew(ctx); err != nil {
		return out, s.errorf("the suggestion lease lapsed while %s suggested (not renewed for %v), so these suggestions are dropped: %w", s.sampler.Name(), suggestLease, err)
	}
	// The new trials share a batch number, so that a batch sampler can
	// tell its batches apart when it replays the history (batch CoCaBO,
	// replayEXP3M). 1 + the number the first of them is about to get is
	// unique: batches are proposed under the suggestion lease and each
	// sees the trials of the ones before.
	batch := h.Trials + 1
	for i, u := range us {
		// Stored as they leave boa (a Float at 1 as 1.0), so that the
		// API can answer the stored JSON as it is.
		pj, err := s.space.MarshalParams(s.space.Decode(u))
		if err != nil {
			return out, err
		}
		rec, err := s.store.AddTrial(ctx, storage.Trial{
			StudyID: s.rec.ID, Params: pj, X: u, State: Running, Worker: s.worker, RetryOf: -1, Batch: batch,
			Origin: string(origins[i]),
		})
		if err != nil {
			return out, s.errorf("add trial: %w", err)
		}
		t, err := s.trial(rec)
		if err != nil {
			return out, err
		}
		out = append(out, t)
	}
	return out, nil
}

// suggest asks the sampler for k new points and their origins
// (sampler.SuggestBatch). Each suggestion draws from a source seeded by the
// study seed and its trial number, so a batch of one is exactly what Ask
// proposes.
func (s *Study) suggest(ctx context.Context, h *sampler.History, k int) ([][]float64, []sampler.Origin, error) {
	us, origins, err := sampler.SuggestBatch(ctx, s.sampler, h, k, func(trial int) *rand.Rand {
		return rand.New(rand.NewPCG(s.rec.Seed, uint64(trial)))
	})
	if err != nil {
		return nil, nil, lasting{s.errorf("%s: %w", s.sampler.Name(), err)}
	}
	return us, origins, nil
}

// Enqueue adds a WAITING trial with the parameters a, a configuration to
// be tried, which the next ask hands out before any suggestion. Unlike
// Optuna's enqueue_trial, a must give every active parameter (and no
// inactive one): nothing is sampled to fill it in. The trial
// keeps a's values as given (Space.Canonical), not as they come back
// through the encoding (a log scale's 0.1 would be 0.10000000000000007).
// It takes the suggestion lease, so that its budget check and insert are
// one step for every process's asks, and returns ErrBudget when the budget
// is used up.
func (s *Study) Enqueue(ctx context.Context, a space.Assignment) (Trial, error) {
	canon, err := s.space.Canonical(a)
	if err != nil {
		return Trial{}, err
	}
	u, err := s.space.Encode(canon)
	if err != nil {
		return Trial{}, err
	}
	pj, err := s.space.MarshalParams(canon)
	if err != nil {
		return Trial{}, err
	}
	lease, err := s.store.Lock(ctx, s.rec.ID, "enqueue", suggestLease)
	if err != nil {
		return Trial{}, s.errorf("take the suggestion lease: %w", err)
	}
	defer s.release(lease)
	if s.Budget() > 0 {
		recs, err := s.records(ctx)
		if err != nil {
			return Trial{}, s.errorf("load trials: %w", err)
		}
		if err := s.reloadBudget(ctx); err != nil {
			return Trial{}, err
		}
		if b := s.Budget(); b > 0 && used(recs) >= b {
			return Trial{}, ErrBudget
		}
	}
	rec, err := s.store.AddTrial(ctx, storage.Trial{StudyID: s.rec.ID, Params: pj, X: u, State: Waiting, RetryOf: -1, Origin: string(sampler.OriginUser)})
	if err != nil {
		return Trial{}, s.errorf("enqueue: %w", err)
	}
	return s.trial(rec)
}

// release gives the suggestion lease back. Left to expire, it would stall
// every other process's asks for up to suggestLease, so while the storage
// is out of reach (a PostgreSQL restart) it is retried in the background,
// patiently. Its error is otherwise moot: the renewal before the inserts
// fenced them.
func (s *Study) release(l *storage.Lease) {
	if l.Unlock() == nil {
		return
	}
	go s.patiently(context.Background(), func() error {
		if err := l.Unlock(); !errors.Is(err, storage.ErrLocked) {
			return err
		}
		return nil // taken over meanwhile: released all the same
	})
}

// claim takes the oldest waiting trial, if any.
func (s *Study) claim(ctx context.Context) (Trial, bool, error) {
	rec, ok, err := s.store.ClaimTrial(ctx, s.rec.ID, s.worker)
	if err != nil || !ok {
		return Trial{}, false, err
	}
	t, err := s.trial(rec)
	return t, true, err
}

func (s *Study) trial(rec storage.Trial) (Trial, error) {
	t, err := fromRecord(s.space, rec)
	if err != nil {
		return Trial{}, lasting{s.errorf("%w", err)}
	}
	t.study = s
	return t, nil
}

// Remaining is the number of trials the study still wants (0 when it has
// no budget or the budget is used up).
func (s *Study) Remaining(ctx context.Context) (int, error) {
	recs, err := s.records(ctx)
	if err != nil {
		return 0, s.errorf("load trials: %w", err)
	}
	return max(0, s.Budget()-used(recs)), nil
}

// used counts the trials that use the budget: a FAILED trial that was
// re-queued gives its place to its retry.
func used(recs []storage.Trial) int {
	n := len(recs)
	for _, r := range recs {
		if r.RetryOf >= 0 {
			n--
		}
	}
	return n
}
