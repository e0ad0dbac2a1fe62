package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinel errors. Every method wraps them with the study or trial concerned;
// test with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrExists   = errors.New("already exists")
	ErrFinished = errors.New("trial already finished")
	// ErrNotRunning: a heartbeat or report for a trial not yet claimed
	// (WAITING), which nobody runs.
	ErrNotRunning = errors.New("not RUNNING")
	ErrLocked     = errors.New("study suggestion lease held by another holder")
	// ErrInvalid: input no back-end takes (a NaN value, a NUL byte in a
	// reason, …); retrying cannot help.
	ErrInvalid = errors.New("invalid input")
)

// State is the life-cycle state of a trial: WAITING → RUNNING → one of
// COMPLETE, PRUNED, FAILED. The zero value is Waiting.
type State int

const (
	Waiting State = iota
	Running
	Complete
	Pruned
	Failed
)

var stateNames = [...]string{"WAITING", "RUNNING", "COMPLETE", "PRUNED", "FAILED"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Finished reports whether s is a final state.
func (s State) Finished() bool { return s == Complete || s == Pruned || s == Failed }

func (s State) valid() bool { return s >= Waiting && s <= Failed }

// ParseState parses a state name as written by String (case-insensitive).
func ParseState(name string) (State, error) {
	u := strings.ToUpper(strings.TrimSpace(name))
	for i, n := range stateNames {
		if n == u {
			return State(i), nil
		}
	}
	return 0, fmt.Errorf("storage: unknown trial state %q (want one of %s)", name, strings.Join(stateNames[:], ", "))
}

// MarshalText encodes the state by name, so JSON carries "COMPLETE", not 2.
func (s State) MarshalText() ([]byte, error) {
	if !s.valid() {
		return nil, fmt.Errorf("storage: invalid trial state %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText is the inverse of MarshalText.
func (s *State) UnmarshalText(b []byte) error {
	v, err := ParseState(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Study is the stored description of a study. Space and Config are opaque
// JSON to storage and round-trip byte for byte.
type Study struct {
	ID        int64
	Name      string
	Direction string          // "minimize" | "maximize"
	Space     json.RawMessage // the search space as JSON (opaque to storage)
	Sampler   string
	Config    json.RawMessage // other settings (opaque JSON object; may be nil)
	Seed      uint64
	Budget    int // number of trials the study wants (0 = no limit)
	Attrs     map[string]string
	Created   time.Time
}

// Report is one intermediate value of a running trial (a learning-curve point).
type Report struct {
	Step  int64   `json:"step"`
	Value float64 `json:"value"`
}

// Trial is one stored evaluation. Times are UTC with microsecond precision
// and zero when not set.
type Trial struct {
	ID      int64
	StudyID int64
	Number  int             // 0-based, unique per study, assigned by AddTrial without gaps
	Params  json.RawMessage // decoded params as a JSON object (opaque)
	X       []float64       // encoded point (may be nil)
	State   State
	Value   *float64 // set for COMPLETE (and optionally PRUNED)
	// Values are every objective's value of a COMPLETE trial of a
	// multi-objective study, Value being the first; nil in a
	// single-objective study.
	Values  []float64
	Metrics map[string]float64
	Reports []Report // intermediate values, ordered by step
	Reason  string   // why it FAILED, or why a COMPLETE trial is infeasible
	// Feasible is whether a COMPLETE trial met the study's constraints:
	// nil when not judged (an unconstrained study, a FAILED or PRUNED
	// trial).
	Feasible *bool
	Worker   string
	LogPath  string
	// RetryOf is the number of the FAILED trial this one re-runs after a
	// crash, or -1. Note that the zero value 0 means "a retry of trial 0":
	// set -1 for an ordinary trial (AddTrial rejects a RetryOf that does not
	// name a FAILED, not yet re-queued trial).
	RetryOf int
	// Batch is shared by the trials a sampler proposed together
	// (study.AskBatch): a positive number unique within the study, copied
	// to a re-queued trial, 0 for a trial proposed in no recorded batch.
	// Batch CoCaBO replays its EXP3.M agents batch by batch from it.
	Batch int
	// Origin is how the trial's point was chosen, for the sampler to read
	// back (sampler.Origin: "design", "model", "user" for an enqueued
	// trial; "" when not recorded), copied to a re-queued trial.
	Origin                                string
	Created, Started, Finished, Heartbeat time.Time // zero when not set
}

// Finish is the final record of a trial given to FinishTrial.
type Finish struct {
	State State // Complete, Pruned or Failed
	Value *float64
	// Values (State Complete only) are every objective's value in a
	// multi-objective study; Values[0] must equal *Value.
	Values  []float64
	Metrics map[string]float64
	Reason  string
	// Feasible (State Complete only) is the constraints' verdict; nil when
	// the study has none.
	Feasible *bool
	// Requeue (State Failed only) also adds a WAITING copy of the trial's
	// configuration, with RetryOf = its number and its batch, in the same
	// transaction: an interrupted trial is then never left FAILED without
	// its re-run, whatever fails or is killed after the finish.
	Requeue bool
}

// Storage persists studies and trials. Implementations are safe for
// concurrent use by many goroutines and, for the SQL back-ends, by many
// processes sharing one database.
type Storage interface {
	CreateStudy(ctx context.Context, s Study) (Study, error)  // ErrExists if the name is taken
	GetStudy(ctx context.Context, name string) (Study, error) // ErrNotFound
	ListStudies(ctx context.Context) ([]Study, error)         // ordered by ID; empty, not nil, when there are none
	// DeleteStudy removes the study named name with its trials, reports,
	// state and lease, all in one transaction (ErrNotFound for an unknown
	// name). Ids are not reused, so a trial id held by a worker of the
	// deleted study is ErrNotFound afterwards, even if a study of the same
	// name is created again.
	DeleteStudy(ctx context.Context, name string) error
	// SetBudget changes the number of trials the study wants (0 = no
	// limit): "run 30, look, run 20 more" keeps one study and its
	// history. ErrNotFound for an unknown study, ErrInvalid if negative.
	SetBudget(ctx context.Context, studyID int64, budget int) error
	// AddTrial inserts t as the study's next trial (Number assigned
	// atomically, no gaps, no duplicates even with many processes adding at
	// once). t.State must be Waiting or Running (Running sets Started and
	// Heartbeat to now). ID, Number, Created, Value, Metrics, Reports,
	// Reason and Finished of t are ignored. t.RetryOf must be -1 or name a
	// FAILED trial of the study; ErrExists if that trial was re-queued
	// already (at most one retry per trial, enforced by a unique index).
	AddTrial(ctx context.Context, t Trial) (Trial, error)
	// ClaimTrial atomically moves the study's oldest (lowest-numbered)
	// WAITING trial to RUNNING for worker (Started/Heartbeat = now). Two
	// concurrent callers never get the same trial. ok is false when no trial
	// is waiting.
	ClaimTrial(ctx context.Context, studyID int64, worker string) (t Trial, ok bool, err error)
	// FinishTrial records the final state; ErrFinished if the trial already
	// finished (a conditional update, so of two concurrent finishes exactly
	// one wins). ErrNotFound for an unknown id. A WAITING trial may only be
	// FAILED (cancelled before it ran): a value for a trial nobody ran is
	// ErrNotRunning, as Optuna refuses to tell a WAITING trial.
	FinishTrial(ctx context.Context, id int64, f Finish) error
	Heartbeat(ctx context.Context, id int64) error                         // ErrFinished if finished
	Report(ctx context.Context, id int64, step int64, value float64) error // upsert by (trial, step); ErrFinished if finished, ErrNotRunning if WAITING
	SetLogPath(ctx context.Context, id int64, path string) error
	GetTrial(ctx context.Context, id int64) (Trial, error)
	// Trials returns every trial of the study ordered by Number, Reports
	// included, in a constant number of queries (empty, not nil, for a
	// study without trials; ErrNotFound for an unknown study).
	Trials(ctx context.Context, studyID int64) ([]Trial, error)
	// TrialsWithoutReports is Trials with every Reports nil: what a
	// sampler reads on each ask, which needs none of them. 100 reports
	// on each of 1000 trials made Trials 20 times slower on SQLite.
	TrialsWithoutReports(ctx context.Context, studyID int64) ([]Trial, error)
	// TrialsChangedSince returns, as TrialsWithoutReports does, the
	// study's trials changed after the change number after, and the
	// study's change number last now: a reader that keeps the trials it
	// has read passes last back next time and so reads only what changed
	// (a 20,000-trial study reread on every ask cost each ask its load).
	// Change numbers are per study, strictly increasing, start at 0 (pass
	// 0 for every trial) and are taken inside the writing transaction,
	// whose writers they serialise, so no change ever becomes visible
	// with a number at or below a last already returned. What bumps a
	// trial's number is what a sampler reads of it: AddTrial (and a
	// re-queue), ClaimTrial, FinishTrial, Reap, SetLogPath; a Reap with
	// nothing stale and a ClaimTrial with nothing waiting, which an ask
	// makes every time, change nothing and take no number (last stays as
	// it was), so that they need no write. Heartbeat and Report do not
	// bump it (they are the frequent writes, and neither is in a trial
	// without reports); a reader of reports reads Trials. A trial
	// may come back again with no change (a retried transaction).
	// ErrNotFound for an unknown study.
	TrialsChangedSince(ctx context.Context, studyID int64, after int64) (trials []Trial, last int64, err error)
	// Reap marks the study's RUNNING trials whose Heartbeat is before
	// `before` as FAILED with Reason "stale: no heartbeat since <time>",
	// and those whose Worker is one of dead, whatever their heartbeat, with
	// Reason "stale: its process pid N on host H is gone" (the caller has
	// proven those workers gone, package internal/proc: they need not wait
	// for the lease). It re-queues each one's Params/X once as a new
	// WAITING trial with RetryOf = its number, unless it was already
	// re-queued or re-runs a trial that was stale too (a configuration
	// lost twice is not re-run forever; the re-run of an interrupted
	// trial is).
	// All in one transaction; concurrent reapers never double-requeue.
	// Returns the trials marked FAILED.
	Reap(ctx context.Context, studyID int64, before time.Time, dead ...string) ([]Trial, error)
	// Lock takes the study's suggestion lease for holder for ttl, which
	// Lease.Renew extends. It waits (polling, honouring ctx) while another
	// lease is live; an expired lease is taken over. Leases are exclusive
	// per call, not per holder name.
	Lock(ctx context.Context, studyID int64, holder string, ttl time.Duration) (*Lease, error)
	// PutState stores state that cannot be recomputed from the trials: a
	// sampler's, or the answer of an ask kept for its repeats (server).
	PutState(ctx context.Context, studyID int64, key string, value []byte) error
	GetState(ctx context.Context, studyID int64, key string) ([]byte, error) // ErrNotFound when absent
	Close() error
}

// SQLitePath returns the file an sqlite: URL names: PATH in sqlite:PATH,
// and, as SQLAlchemy (and so Optuna) reads them, a relative path in
// sqlite:///PATH and an absolute one in sqlite:////PATH. It returns ""
// for a URL of another kind.
func SQLitePath(url string) string {
	rest, ok := strings.CutPrefix(url, "sqlite:")
	if !ok {
		return ""
	}
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		rest = strings.TrimPrefix(r, "/") // sqlite://HOST/PATH, HOST empty
	}
	return rest
}

// Open opens a storage by URL:
//
//	memory:                 a fresh in-process store (lost on exit)
//	sqlite:PATH             an SQLite file, created if absent (e.g. sqlite:boa.db);
//	                        sqlite:///boa.db and sqlite:////abs/boa.db as in Optuna
//	postgres://USER:PASS@HOST:PORT/DB?sslmode=disable   (also postgresql://)
//
// The SQL back-ends migrate the schema to the current version on Open.
func Open(ctx context.Context, url string) (Storage, error) {
	switch {
	case url == "memory:" || url == "memory":
		return NewMemory(), nil
	case strings.HasPrefix(url, "sqlite:"):
		path := SQLitePath(url)
		if path == "" {
			return nil, fmt.Errorf("storage: %q names no file: want sqlite:PATH, e.g. sqlite:boa.db", url)
		}
		return OpenSQLite(ctx, path)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return OpenPostgres(ctx, url)
	}
	return nil, fmt.Errorf("storage: unknown storage URL %q: want memory:, sqlite:PATH (e.g. sqlite:boa.db) or postgres://USER:PASSWORD@HOST:PORT/DB", url)
}
