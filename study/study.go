package study

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/boaopt/boa/constraint"
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
	// Objectives name the objectives and their senses; two or more make
	// a multi-objective study (Goal), whose Direction is then the
	// first objective's. Empty: one objective, "value", of Direction.
	Objectives []Goal
	Space      *space.Space
	Sampler    string // a registered sampler name; "" means auto
	// SamplerOptions configure the sampler (sampler.Configurable), the
	// mapping form of a study file's sampler; stored with the study.
	SamplerOptions sampler.Options
	Seed           uint64
	Budget         int                 // trials wanted; 0 means no limit
	Transform      transform.Transform // what the sampler's model is fitted to (package transform); None by default
	Pruner         pruner.Spec         // which running trials ShouldPrune stops early; none by default
	// Constraints are limits on the metrics a trial reports
	// (Result.Metrics, BOA_METRIC lines): Best is then the best feasible
	// trial. None by default.
	Constraints constraint.Set
	// Fidelity, when set, is what the trials' reports count (Fidelity):
	// the command gets its maximum, and Hyperband and successive halving
	// their resources. None by default.
	Fidelity *Fidelity
}

// Study is an optimisation study kept in a storage. Any number of Study
// values, in any number of processes, may work on the same stored study:
// suggestions are serialised by the storage's study lease, and each
// waiting trial is claimed by exactly one of them.
type Study struct {
	store    storage.Storage
	rec      storage.Study
	dir      Direction
	objs     []Goal // at least one; dir is objs[0]'s direction
	tf       transform.Transform
	space    *space.Space
	sampler  sampler.Sampler
	pruner   pruner.Pruner // nil: none
	prnSpec  pruner.Spec   // the stored pruner's spec (Create, Open)
	cons     constraint.Set
	fid      *Fidelity      // nil: none
	known    Known          // nil: no metric is known before evaluation
	modelled constraint.Set // the constraints on metrics known only after evaluation
	worker   string
	lease    time.Duration
	// budget is rec.Budget as last read or set: SetBudget and an ask
	// that finds the budget used up (another process may have raised
	// it) update it while other goroutines ask.
	budget atomic.Int64
	scan   deadScan // when reap last looked for the trials of dead processes
	cache  records  // the trials read so far (records)
}

// Options configure New.
type Options struct {
	Name      string
	Direction Direction
	// Objectives make a multi-objective study (Spec.Objectives).
	Objectives []Goal
	// Sampler proposes the trials: a value (gpbo.New(), one of your
	// own), or a registered sampler by name, sampler.New("tpe"); nil
	// means auto.
	Sampler sampler.Sampler
	// Storage keeps the study; nil means a fresh memory one.
	Storage   storage.Storage
	Seed      uint64
	Budget    int
	Transform transform.Transform
	Pruner    pruner.Pruner // nil means none; any Pruner, the user's own too
	// Constraints are limits on the metrics a trial reports (Spec.Constraints).
	Constraints constraint.Set
	// Fidelity is what the trials' reports count (Spec.Fidelity).
	Fidelity *Fidelity
	// Known computes some of those metrics from a configuration before it
	// is evaluated (Known, SetKnown); nil means none.
	Known Known
}

// Name returns the study's name, unique in its storage.
func (s *Study) Name() string { return s.rec.Name }

// ID returns the study's id in its storage.
func (s *Study) ID() int64 { return s.rec.ID }

// Direction returns the sense of the objective, the first one of a
// multi-objective study; values, Best and the trials are all in this
// sense.
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

// Constraints returns the study's limits on its trials' metrics; empty
// when it has none.
func (s *Study) Constraints() constraint.Set { return s.cons }

// Seed returns the seed every suggestion's random source derives from.
func (s *Study) Seed() uint64 { return s.rec.Seed }

// Budget returns the number of trials the study wants; 0 means no limit.
func (s *Study) Budget() int { return int(s.budget.Load()) }

// SetBudget changes the number of trials the study wants (0: no limit),
// keeping its history: a study of 30 trials set to 50 asks for 20 more,
// and its sampler sees all of them, as if it had wanted 50 from the start
// (a sampler that plans by the budget — auto's choice, CoCaBO's horizon,
// SVM-CBO's phases — plans by the new one from then on). Other processes
// working on the study see the new budget when theirs runs out.
func (s *Study) SetBudget(ctx context.Context, n int) error {
	if n < 0 {
		return s.errorf("a budget of %d trials; want 0 (no limit) or more", n)
	}
	if err := s.store.SetBudget(ctx, s.rec.ID, n); err != nil {
		return s.errorf("set budget: %w", err)
	}
	s.budget.Store(int64(n))
	return nil
}

// reloadBudget reads the stored budget, which another process may have
// changed.
func (s *Study) reloadBudget(ctx context.Context) error {
	rec, err := s.store.GetStudy(ctx, s.rec.Name)
	if err != nil {
		return s.errorf("reload budget: %w", err)
	}
	s.budget.Store(int64(rec.Budget))
	return nil
}

// Storage returns the storage the study is kept in (a memory one for New).
func (s *Study) Storage() storage.Storage { return s.store }

// Transform is what the study's values are mapped to before its sampler
// sees them (package transform).
func (s *Study) Transform() transform.Transform { return s.tf }

// SetWorker names this process in the trials it runs. The default,
// internal/proc's "host:pid:start.boot.machine.pidns", lets another
// process on this host prove it gone after a crash and re-run its trials
// at once; any other name keeps its trials to the lease rule.
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

func (s *Study) errorf(format string, args ...any) error {
	return fmt.Errorf("study %s: "+format, append([]any{s.rec.Name}, args...)...)
}
