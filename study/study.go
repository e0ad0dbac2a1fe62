package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/transform"
)

// Direction is the sense of the objective.
type Direction int

const (
	Minimize Direction = iota // lower values are better (the default)
	Maximize                  // higher values are better
)

func (d Direction) String() string {
	if d == Maximize {
		return "maximize"
	}
	return "minimize"
}

// ParseDirection reads "minimize" or "maximize" (also "min", "max").
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(s) {
	case "minimize", "minimise", "min", "":
		return Minimize, nil
	case "maximize", "maximise", "max":
		return Maximize, nil
	}
	return 0, fmt.Errorf("direction must be minimize or maximize, got %q", s)
}

var (
	// ErrBudget is returned by Ask when the study has all the trials it wants.
	ErrBudget = errors.New("the study's trial budget is used up")
	// ErrFinished is returned by Tell for a trial that already has a result.
	ErrFinished = storage.ErrFinished
	// ErrNotRunning is returned by Tell with a value, and by Report, for a
	// WAITING trial (enqueued, not yet handed out by an ask).
	ErrNotRunning = storage.ErrNotRunning
)

// DefaultLease is how long a running trial may go without a heartbeat
// before it is taken for dead, FAILED (stale) and re-queued.
const DefaultLease = 30 * time.Second

// suggestLease bounds how long one process may hold the study's
// suggestion lease without renewing it (a suggestion renews it every
// third of that): short, because a process killed while suggesting (a
// kill -9 of boa run or of a boa serve replica) stalls every other
// process's asks of the study until it expires.
var suggestLease = 30 * time.Second // a variable for tests

// Spec defines a new study.
type Spec struct {
	Name      string
	Direction Direction
	Space     *space.Space
	Sampler   string // a registered sampler name; "" means auto
	Seed      uint64
	Budget    int                 // trials wanted; 0 means no limit
	Transform transform.Transform // what the sampler's model is fitted to (package transform); None by default
	Pruner    pruner.Spec         // which running trials ShouldPrune stops early; none by default
}

// Study is an optimisation study kept in a storage. Any number of Study
// values, in any number of processes, may work on the same stored study:
// suggestions are serialised by the storage's study lease, and each
// waiting trial is claimed by exactly one of them.
type Study struct {
	store   storage.Storage
	rec     storage.Study
	dir     Direction
	tf      transform.Transform
	space   *space.Space
	sampler sampler.Sampler
	pruner  pruner.Pruner // nil: none
	prnSpec pruner.Spec   // the stored pruner's spec (Create, Open)
	worker  string
	lease   time.Duration
}

// Options configure New, the in-memory study.
type Options struct {
	Name      string
	Direction Direction
	Sampler   sampler.Sampler // nil means auto
	Seed      uint64
	Budget    int
	Transform transform.Transform
	Pruner    pruner.Pruner // nil means none; any Pruner, the user's own too
}

// New returns a study kept in memory, with the given sampler instance,
// which may be one of the user's own (any Sampler: its name need not be
// registered, as Create's must).
func New(sp *space.Space, o Options) (*Study, error) {
	name := o.Name
	if name == "" {
		name = "study"
	}
	spec := Spec{Name: name, Direction: o.Direction, Space: sp, Seed: o.Seed, Budget: o.Budget, Transform: o.Transform}
	if o.Sampler != nil {
		spec.Sampler = o.Sampler.Name()
	}
	st, err := create(context.Background(), storage.NewMemory(), spec, o.Sampler)
	if err == nil && o.Pruner != nil {
		st.pruner = o.Pruner
	}
	return st, err
}

// Create creates the study in store; storage.ErrExists if the name is taken.
func Create(ctx context.Context, store storage.Storage, spec Spec) (*Study, error) {
	return create(ctx, store, spec, nil)
}

// create is Create with the sampler instance smp (New's), or with the
// registered sampler spec.Sampler names when smp is nil.
func create(ctx context.Context, store storage.Storage, spec Spec, smp sampler.Sampler) (*Study, error) {
	if spec.Space == nil || spec.Space.Len() == 0 {
		return nil, errors.New("study: the search space has no parameters")
	}
	if spec.Budget < 0 {
		return nil, fmt.Errorf("study: budget must be 0 (no limit) or more, got %d", spec.Budget)
	}
	if spec.Sampler == "" {
		spec.Sampler = "auto"
	}
	if smp == nil {
		if err := sampler.Check(spec.Sampler, spec.Space); err != nil {
			return nil, fmt.Errorf("study: %w", err)
		}
	} else if c, ok := smp.(sampler.SpaceChecker); ok {
		if err := c.CheckSpace(spec.Space); err != nil {
			return nil, fmt.Errorf("study: %w", err)
		}
	}
	sp, err := json.Marshal(spec.Space)
	if err != nil {
		return nil, err
	}
	if _, err := spec.Pruner.Build(); err != nil {
		return nil, fmt.Errorf("study: pruner: %w", err)
	}
	set := settings{Transform: spec.Transform}
	if !spec.Pruner.IsNone() {
		set.Pruner = &spec.Pruner
	}
	var cfg json.RawMessage
	if set != (settings{}) {
		if cfg, err = json.Marshal(set); err != nil {
			return nil, fmt.Errorf("study: %w", err) // an unknown transform
		}
	}
	rec, err := store.CreateStudy(ctx, storage.Study{
		Name: spec.Name, Direction: spec.Direction.String(), Space: sp,
		Sampler: spec.Sampler, Config: cfg, Seed: spec.Seed, Budget: spec.Budget,
	})
	if err != nil {
		return nil, err
	}
	return open(store, rec, smp)
}

// settings are the stored study's settings that storage.Study has no
// column for (its Config). A study without any stores none.
type settings struct {
	Transform transform.Transform `json:"transform,omitempty"`
	Pruner    *pruner.Spec        `json:"pruner,omitempty"`
}

func settingsOf(rec storage.Study) (settings, error) {
	var set settings
	if len(rec.Config) > 0 {
		if err := json.Unmarshal(rec.Config, &set); err != nil {
			return set, fmt.Errorf("study %s: stored settings: %w", rec.Name, err)
		}
	}
	return set, nil
}

// TransformOf returns the transform stored with study rec.
func TransformOf(rec storage.Study) (transform.Transform, error) {
	set, err := settingsOf(rec)
	return set.Transform, err
}

// PrunerOf returns the pruner stored with study rec; its Type is "" when
// the study has none.
func PrunerOf(rec storage.Study) (pruner.Spec, error) {
	set, err := settingsOf(rec)
	if err != nil || set.Pruner == nil {
		return pruner.Spec{}, err
	}
	return *set.Pruner, nil
}

// Open opens the study called name in store; storage.ErrNotFound if there
// is none. The sampler is rebuilt from the stored name and the history.
func Open(ctx context.Context, store storage.Storage, name string) (*Study, error) {
	rec, err := store.GetStudy(ctx, name)
	if err != nil {
		return nil, err
	}
	return open(store, rec, nil)
}

// open returns the stored study rec with the sampler smp, or with the one
// rec names when smp is nil.
func open(store storage.Storage, rec storage.Study, smp sampler.Sampler) (*Study, error) {
	var sp space.Space
	if err := json.Unmarshal(rec.Space, &sp); err != nil {
		return nil, fmt.Errorf("study %s: stored space: %w", rec.Name, err)
	}
	dir, err := ParseDirection(rec.Direction)
	if err != nil {
		return nil, fmt.Errorf("study %s: %w", rec.Name, err)
	}
	if smp == nil {
		if smp, err = sampler.New(rec.Sampler); err != nil {
			return nil, fmt.Errorf("study %s: %w", rec.Name, err)
		}
	}
	set, err := settingsOf(rec)
	if err != nil {
		return nil, err
	}
	var (
		prn  pruner.Pruner
		spec pruner.Spec
	)
	if set.Pruner != nil {
		spec = *set.Pruner
		if prn, err = spec.Build(); err != nil {
			return nil, fmt.Errorf("study %s: stored pruner: %w", rec.Name, err)
		}
	}
	host, _ := os.Hostname()
	return &Study{
		store: store, rec: rec, dir: dir, tf: set.Transform, space: &sp, sampler: smp, pruner: prn, prnSpec: spec,
		worker: fmt.Sprintf("%s:%d", host, os.Getpid()), lease: DefaultLease,
	}, nil
}

// Name returns the study's name, unique in its storage.
func (s *Study) Name() string { return s.rec.Name }

// ID returns the study's id in its storage.
func (s *Study) ID() int64 { return s.rec.ID }

// Direction returns the sense of the objective; values, Best and the
// trials are all in this sense.
func (s *Study) Direction() Direction { return s.dir }

// Space returns the search space.
func (s *Study) Space() *space.Space { return s.space }

// Sampler returns the sampler that proposes the new trials.
func (s *Study) Sampler() sampler.Sampler { return s.sampler }

// Pruner returns the pruner that ShouldPrune asks, nil when there is none.
func (s *Study) Pruner() pruner.Pruner { return s.pruner }

// PrunerSpec returns the pruner stored with the study (Spec.Pruner); its
// Type is "" when there is none, and for New's studies.
func (s *Study) PrunerSpec() pruner.Spec { return s.prnSpec }

// Seed returns the seed every suggestion's random source derives from.
func (s *Study) Seed() uint64 { return s.rec.Seed }

// Budget returns the number of trials the study wants; 0 means no limit.
func (s *Study) Budget() int { return s.rec.Budget }

// Storage returns the storage the study is kept in (a memory one for New).
func (s *Study) Storage() storage.Storage { return s.store }

// Transform is what the study's values are mapped to before its sampler
// sees them (package transform).
func (s *Study) Transform() transform.Transform { return s.tf }

// SetWorker names this process in the trials it runs (default host:pid).
func (s *Study) SetWorker(name string) { s.worker = name }

// SetLease sets how long a running trial may go without a heartbeat
// before any worker's next Ask marks it FAILED (stale) and re-queues it.
func (s *Study) SetLease(d time.Duration) { s.lease = d }

// Lease returns the heartbeat lease.
func (s *Study) Lease() time.Duration { return s.lease }

// internal maps a user value to the minimised internal value.
func (s *Study) internal(v float64) float64 {
	if s.dir == Maximize {
		return -v
	}
	return v
}

// Ask returns a RUNNING trial for this worker: a waiting one (re-queued
// after a crash) if there is one, else a new suggestion of the sampler.
// Running trials whose heartbeat lapsed are failed and re-queued first.
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
	if _, err := s.store.Reap(ctx, s.rec.ID, time.Now().Add(-s.lease)); err != nil {
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
	recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
	if err != nil {
		return out, s.errorf("load trials: %w", err)
	}
	k := n - len(out)
	if s.rec.Budget > 0 {
		k = min(k, s.rec.Budget-used(recs))
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
		pj, err := json.Marshal(s.space.Decode(u))
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
	pj, err := json.Marshal(canon)
	if err != nil {
		return Trial{}, err
	}
	lease, err := s.store.Lock(ctx, s.rec.ID, "enqueue", suggestLease)
	if err != nil {
		return Trial{}, s.errorf("take the suggestion lease: %w", err)
	}
	defer s.release(lease)
	if s.rec.Budget > 0 {
		recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
		if err != nil {
			return Trial{}, s.errorf("load trials: %w", err)
		}
		if used(recs) >= s.rec.Budget {
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
	recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
	if err != nil {
		return 0, s.errorf("load trials: %w", err)
	}
	return max(0, s.rec.Budget-used(recs)), nil
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

// History returns what the study's sampler sees now (sampler.History):
// for tools that ask a model about the study, such as NAS-BOWL's motif
// scores (boa motifs).
func (s *Study) History(ctx context.Context) (*sampler.History, error) {
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return nil, s.errorf("load trials: %w", err)
	}
	return s.history(recs)
}

// history builds the sampler's view of the stored trials: the values of
// the completed ones transformed (Spec.Transform), then in the minimised
// sense.
func (s *Study) history(recs []storage.Trial) (*sampler.History, error) {
	h := &sampler.History{Space: s.space, Trials: len(recs), Seed: s.rec.Seed, Budget: s.rec.Budget}
	var values []float64
	for _, r := range recs {
		if len(r.X) != s.space.Len() {
			continue // e.g. a trial enqueued without an encoding
		}
		switch {
		case r.State == Complete && r.Value != nil && s.tf.Check(*r.Value) == nil:
			h.Observed = append(h.Observed, sampler.Observation{X: r.X, Batch: r.Batch, Origin: sampler.Origin(r.Origin)})
			values = append(values, *r.Value)
		case r.State == Waiting || r.State == Running:
			h.Pending = append(h.Pending, r.X)
		case r.State == Failed, r.State == Complete:
			// A COMPLETE value the transform cannot take (Tell fails such
			// a trial, but an older boa that ignores the transform may
			// have recorded one) is kept from the model as a failure.
			h.Failed = append(h.Failed, r.X)
		case r.State == Pruned:
			h.Pruned = append(h.Pruned, r.X)
		}
	}
	for i, v := range s.tf.Apply(values) {
		h.Observed[i].Y = s.internal(v)
	}
	return h, nil
}

// Result is what a finished trial reports.
type Result struct {
	Value   float64            // the objective in the user's sense
	Err     error              // non-nil: the trial FAILED with this reason
	Pruned  bool               // stopped early by a pruner; Value is the last intermediate value
	Metrics map[string]float64 // extra metrics and constraint values
	// Requeue (with Err) says the trial was interrupted, not at fault: its
	// configuration is run again. An Err wrapping context.Canceled or
	// context.DeadlineExceeded says the same.
	Requeue bool
}

// Tell records the result of trial id; ErrFinished (wrapped) when it
// already has one, even the same: a result is final. A WAITING trial (not
// yet asked for) takes only an error, which cancels it; a value for it is
// ErrNotRunning, as Optuna refuses to tell a WAITING trial. An error, or a value that is NaN,
// infinite or one the study's transform cannot take (log: not > 0), marks
// the trial FAILED with the reason; the study is otherwise unaffected. An
// interrupted trial (Result.Requeue) is FAILED with its reason and its
// configuration re-queued, in one transaction, so that a resumed study
// runs it again; also when it is itself a re-run, since an interruption
// says nothing about the configuration (a trial whose process died is
// re-run once only, by the storage's Reap: a configuration that kills its
// worker twice should not be tried forever). A NUL
// byte or invalid UTF-8 in the reason or a metric name (a crashing
// program's output) becomes U+FFFD, which every storage can keep.
func (s *Study) Tell(ctx context.Context, id int64, r Result) error {
	if err := s.store.FinishTrial(ctx, id, s.finish(r)); err != nil {
		return s.errorf("tell trial %d: %w", id, err)
	}
	return nil
}

// finish is what Tell records for r.
func (s *Study) finish(r Result) storage.Finish {
	f := storage.Finish{State: Complete, Metrics: finite(r.Metrics)}
	switch {
	case r.Err != nil:
		f.State, f.Reason, f.Requeue = Failed, storable(r.Err.Error()), interrupted(r)
	case math.IsNaN(r.Value) || math.IsInf(r.Value, 0):
		f.State, f.Reason = Failed, fmt.Sprintf("objective returned %v", r.Value)
	case r.Pruned:
		f.State, f.Value = Pruned, &r.Value
	default:
		f.Value = &r.Value
		if err := s.tf.Check(r.Value); err != nil {
			f.State, f.Value, f.Reason = Failed, nil, fmt.Sprintf("objective returned %v, but %v", r.Value, err)
		}
	}
	return f
}

func interrupted(r Result) bool {
	return r.Requeue || errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded)
}

// finite drops NaN and infinite metrics, which no storage can keep, and
// makes the names storable.
func finite(m map[string]float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			out[storable(k)] = v
		}
	}
	return out
}

// storable replaces what storage refuses in text (storage.ErrInvalid): NUL
// bytes and invalid UTF-8 become U+FFFD.
func storable(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", "\uFFFD"), "\uFFFD")
}

// Heartbeat tells the storage that trial id is still running.
func (s *Study) Heartbeat(ctx context.Context, id int64) error {
	return s.store.Heartbeat(ctx, id)
}

// Report records an intermediate value of running trial id; a second
// report for the same step replaces the first. Steps count from 0 (epochs
// or iterations, as in Optuna); a negative step is an error, as is a
// finished or WAITING trial.
func (s *Study) Report(ctx context.Context, id int64, step int64, value float64) error {
	if math.IsNaN(value) || math.IsInf(value, 0) {
		return s.errorf("trial %d: intermediate value at step %d is %v", id, step, value)
	}
	return s.store.Report(ctx, id, step, value)
}

// ShouldPrune reports whether running trial id should stop early, by the
// study's pruner, after its latest report: Optuna's trial.should_prune.
// It is false for a study without a pruner and for a trial without
// reports. The objective decides what to do with the answer: an Objective
// of Optimize returns its last value with ErrPruned, and `boa run` and
// `boa worker` stop a command trial and record it PRUNED.
func (s *Study) ShouldPrune(ctx context.Context, id int64) (bool, error) {
	if s.pruner == nil {
		return false, nil
	}
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return false, s.errorf("load trials: %w", err)
	}
	snap := pruner.Study{Name: s.rec.Name, Maximize: s.dir == Maximize, Trials: make([]pruner.Trial, 0, len(recs))}
	self := -1
	for _, r := range recs {
		if r.ID == id && r.State != Running {
			if r.State == Waiting {
				return false, s.errorf("trial %d: %w", r.Number, ErrNotRunning)
			}
			return false, s.errorf("trial %d is %s: %w", r.Number, r.State, ErrFinished)
		}
		var st pruner.State
		switch r.State {
		case Running:
			st = pruner.Running
		case Complete:
			st = pruner.Complete
		case Pruned:
			st = pruner.Pruned
		case Failed:
			st = pruner.Failed
		default: // WAITING: nothing reported yet
			continue
		}
		curve := make([]pruner.Point, len(r.Reports))
		for i, p := range r.Reports {
			curve[i] = pruner.Point{Step: p.Step, Value: p.Value}
		}
		if r.ID == id {
			self = len(snap.Trials)
		}
		snap.Trials = append(snap.Trials, pruner.Trial{Number: r.Number, State: st, Curve: curve})
	}
	if self < 0 {
		return false, s.errorf("trial id %d: %w", id, storage.ErrNotFound)
	}
	t := snap.Trials[self]
	if len(t.Curve) == 0 {
		return false, nil
	}
	return s.pruner.Prune(snap, t), nil
}

// Trials returns every trial, in order.
func (s *Study) Trials(ctx context.Context) ([]Trial, error) {
	recs, err := s.store.Trials(ctx, s.rec.ID)
	if err != nil {
		return nil, s.errorf("load trials: %w", err)
	}
	out := make([]Trial, len(recs))
	for i, r := range recs {
		if out[i], err = fromRecord(s.space, r); err != nil {
			return nil, s.errorf("%w", err)
		}
	}
	return out, nil
}

// Best returns the best COMPLETE trial in the study's direction (the
// highest value when it maximises; of equal ones, the first); ok is false
// when there is none. PRUNED trials do not count.
func (s *Study) Best(ctx context.Context) (best Trial, ok bool, err error) {
	trials, err := s.Trials(ctx)
	if err != nil {
		return Trial{}, false, err
	}
	for _, t := range trials {
		if t.State == Complete && (!ok || s.internal(t.Value) < s.internal(best.Value)) {
			best, ok = t, true
		}
	}
	return best, ok, nil
}

func (s *Study) errorf(format string, args ...any) error {
	return fmt.Errorf("study %s: "+format, append([]any{s.rec.Name}, args...)...)
}
