package storage

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Memory is an in-process Storage guarded by one mutex. Everything passed in
// or out is deep-copied, so callers can never alias stored state. It is what
// "memory:" opens and what tests and single-process runs use.
type Memory struct {
	mu      sync.Mutex
	now     func() time.Time
	studies []*Study // index = ID-1; nil once deleted (ids are never reused)
	byName  map[string]*Study
	trials  []*Trial  // index = ID-1; nil once its study is deleted
	ofStudy [][]int64 // per study (ID-1): trial IDs in Number order
	retried map[[2]int64]bool
	state   map[memKey][]byte
	leases  map[int64]memLease
	nextTok uint64
	closed  bool
	// seq stamps each trial with its study's change counter, lastSeq,
	// at its last change (TrialsChangedSince).
	seq     map[int64]int64 // by trial ID
	lastSeq map[int64]int64 // by study ID
}

type memKey struct {
	study int64
	key   string
}

type memLease struct {
	token   uint64
	expires time.Time
}

// NewMemory returns an empty in-memory storage.
func NewMemory() *Memory {
	return &Memory{
		now:     time.Now,
		byName:  map[string]*Study{},
		retried: map[[2]int64]bool{},
		state:   map[memKey][]byte{},
		leases:  map[int64]memLease{},
		seq:     map[int64]int64{},
		lastSeq: map[int64]int64{},
	}
}

var _ Storage = (*Memory)(nil)

// lock takes the mutex for a call made with ctx. A call whose context has
// ended changes nothing and returns ctx.Err(), as the SQL storages do
// (database/sql checks the context before it runs a statement).
func (m *Memory) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return fmt.Errorf("storage: memory storage is closed")
	}
	return nil
}

func (m *Memory) study(id int64) (*Study, error) {
	if id < 1 || id > int64(len(m.studies)) || m.studies[id-1] == nil {
		return nil, fmt.Errorf("storage: study %d: %w", id, ErrNotFound)
	}
	return m.studies[id-1], nil
}

func (m *Memory) trial(id int64) (*Trial, error) {
	if id < 1 || id > int64(len(m.trials)) || m.trials[id-1] == nil {
		return nil, fmt.Errorf("storage: trial %d: %w", id, ErrNotFound)
	}
	return m.trials[id-1], nil
}

func (m *Memory) CreateStudy(ctx context.Context, s Study) (Study, error) {
	if err := validateStudy(s); err != nil {
		return Study{}, err
	}
	if err := m.lock(ctx); err != nil {
		return Study{}, err
	}
	defer m.mu.Unlock()
	if _, ok := m.byName[s.Name]; ok {
		return Study{}, fmt.Errorf("storage: study %q: %w", s.Name, ErrExists)
	}
	c := cloneStudy(s)
	c.ID = int64(len(m.studies) + 1)
	c.Created = clock(m.now)
	m.studies = append(m.studies, &c)
	m.ofStudy = append(m.ofStudy, nil)
	m.byName[c.Name] = &c
	return cloneStudy(c), nil
}

func (m *Memory) GetStudy(ctx context.Context, name string) (Study, error) {
	if err := m.lock(ctx); err != nil {
		return Study{}, err
	}
	defer m.mu.Unlock()
	s, ok := m.byName[name]
	if !ok {
		return Study{}, fmt.Errorf("storage: study %q: %w", name, ErrNotFound)
	}
	return cloneStudy(*s), nil
}

func (m *Memory) ListStudies(ctx context.Context) ([]Study, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	out := make([]Study, 0, len(m.studies))
	for _, s := range m.studies {
		if s != nil {
			out = append(out, cloneStudy(*s))
		}
	}
	return out, nil
}

func (m *Memory) SetBudget(ctx context.Context, studyID int64, budget int) error {
	if budget < 0 {
		return invalid("storage: study %d: negative budget %d", studyID, budget)
	}
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	s, err := m.study(studyID)
	if err != nil {
		return err
	}
	s.Budget = budget
	return nil
}

func (m *Memory) AddTrial(ctx context.Context, t Trial) (Trial, error) {
	if err := validateNewTrial(t); err != nil {
		return Trial{}, err
	}
	if err := m.lock(ctx); err != nil {
		return Trial{}, err
	}
	defer m.mu.Unlock()
	if _, err := m.study(t.StudyID); err != nil {
		return Trial{}, fmt.Errorf("storage: add trial: %w", err)
	}
	if t.RetryOf >= 0 {
		ids := m.ofStudy[t.StudyID-1]
		switch {
		case t.RetryOf >= len(ids):
			return Trial{}, retryTargetError(t.StudyID, t.RetryOf, "names no trial of the study")
		case m.trials[ids[t.RetryOf]-1].State != Failed:
			return Trial{}, retryTargetError(t.StudyID, t.RetryOf, "names a trial that is not FAILED")
		case m.retried[[2]int64{t.StudyID, int64(t.RetryOf)}]:
			return Trial{}, retryExistsError(t.StudyID, t.RetryOf)
		}
	}
	c := cloneTrial(t)
	c.Value, c.Values, c.Metrics, c.Reports, c.Reason, c.Feasible = nil, nil, nil, nil, "", nil
	c.Finished, c.Started, c.Heartbeat = time.Time{}, time.Time{}, time.Time{}
	now := clock(m.now)
	c.Created = now
	if c.State == Running {
		c.Started, c.Heartbeat = now, now
	}
	return cloneTrial(*m.insert(&c)), nil
}

// insert appends c as the next trial of its study; m.mu must be held.
func (m *Memory) insert(c *Trial) *Trial {
	c.ID = int64(len(m.trials) + 1)
	c.Number = len(m.ofStudy[c.StudyID-1])
	m.trials = append(m.trials, c)
	m.ofStudy[c.StudyID-1] = append(m.ofStudy[c.StudyID-1], c.ID)
	m.touch(c)
	if c.RetryOf >= 0 {
		m.retried[[2]int64{c.StudyID, int64(c.RetryOf)}] = true
	}
	return c
}

func (m *Memory) ClaimTrial(ctx context.Context, studyID int64, worker string) (Trial, bool, error) {
	if err := m.lock(ctx); err != nil {
		return Trial{}, false, err
	}
	defer m.mu.Unlock()
	if _, err := m.study(studyID); err != nil {
		return Trial{}, false, fmt.Errorf("storage: claim trial: %w", err)
	}
	for _, id := range m.ofStudy[studyID-1] {
		t := m.trials[id-1]
		if t.State == Waiting {
			now := clock(m.now)
			t.State, t.Worker, t.Started, t.Heartbeat = Running, worker, now, now
			m.touch(t)
			return cloneTrial(*t), true, nil
		}
	}
	return Trial{}, false, nil
}

// live returns the trial if it has not finished; m.mu must be held.
func (m *Memory) live(id int64, op string) (*Trial, error) {
	t, err := m.trial(id)
	if err != nil {
		return nil, fmt.Errorf("storage: %s: %w", op, err)
	}
	if t.State.Finished() {
		return nil, fmt.Errorf("storage: %s: trial %d (number %d) is %v: %w", op, id, t.Number, t.State, ErrFinished)
	}
	return t, nil
}

func (m *Memory) FinishTrial(ctx context.Context, id int64, f Finish) error {
	if err := validateFinish(id, f); err != nil {
		return err
	}
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	t, err := m.live(id, "finish trial")
	if err != nil {
		return err
	}
	if t.State != Running && f.State != Failed {
		return notRunningError("finish trial", id, t.State)
	}
	c := cloneTrial(Trial{Value: f.Value, Values: f.Values, Metrics: f.Metrics, Feasible: f.Feasible})
	t.State, t.Value, t.Values, t.Metrics, t.Reason, t.Feasible = f.State, c.Value, c.Values, c.Metrics, f.Reason, c.Feasible
	t.Finished = clock(m.now)
	m.touch(t)
	if f.Requeue && !m.retried[[2]int64{t.StudyID, int64(t.Number)}] {
		m.insert(&Trial{
			StudyID: t.StudyID, Params: cloneRaw(t.Params), X: cloneFloats(t.X),
			State: Waiting, RetryOf: t.Number, Batch: t.Batch, Origin: t.Origin, Created: t.Finished,
		})
	}
	return nil
}

func (m *Memory) Heartbeat(ctx context.Context, id int64) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	t, err := m.live(id, "heartbeat")
	if err != nil {
		return err
	}
	if t.State != Running {
		return notRunningError("heartbeat", id, t.State)
	}
	t.Heartbeat = clock(m.now)
	return nil
}

func notRunningError(op string, id int64, s State) error {
	return fmt.Errorf("storage: %s: trial %d is %v, %w (claim it first)", op, id, s, ErrNotRunning)
}

func (m *Memory) Report(ctx context.Context, id int64, step int64, value float64) error {
	if err := validateReport(id, step, value); err != nil {
		return err
	}
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	t, err := m.live(id, "report")
	if err != nil {
		return err
	}
	if t.State != Running {
		return notRunningError("report", id, t.State)
	}
	i, found := slices.BinarySearchFunc(t.Reports, step, func(r Report, s int64) int {
		switch {
		case r.Step < s:
			return -1
		case r.Step > s:
			return 1
		}
		return 0
	})
	if found {
		t.Reports[i].Value = value
	} else {
		t.Reports = slices.Insert(t.Reports, i, Report{Step: step, Value: value})
	}
	return nil
}

func (m *Memory) SetLogPath(ctx context.Context, id int64, path string) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	t, err := m.trial(id)
	if err != nil {
		return fmt.Errorf("storage: set log path: %w", err)
	}
	t.LogPath = path
	m.touch(t)
	return nil
}

func (m *Memory) GetTrial(ctx context.Context, id int64) (Trial, error) {
	if err := m.lock(ctx); err != nil {
		return Trial{}, err
	}
	defer m.mu.Unlock()
	t, err := m.trial(id)
	if err != nil {
		return Trial{}, fmt.Errorf("storage: get trial: %w", err)
	}
	return cloneTrial(*t), nil
}

func (m *Memory) Trials(ctx context.Context, studyID int64) ([]Trial, error) {
	return m.listTrials(ctx, studyID, true)
}

func (m *Memory) TrialsWithoutReports(ctx context.Context, studyID int64) ([]Trial, error) {
	return m.listTrials(ctx, studyID, false)
}

func (m *Memory) listTrials(ctx context.Context, studyID int64, reports bool) ([]Trial, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if _, err := m.study(studyID); err != nil {
		return nil, fmt.Errorf("storage: trials: %w", err)
	}
	ids := m.ofStudy[studyID-1]
	out := make([]Trial, len(ids))
	for i, id := range ids {
		t := *m.trials[id-1]
		if !reports {
			t.Reports = nil
		}
		out[i] = cloneTrial(t)
	}
	return out, nil
}

func (m *Memory) Reap(ctx context.Context, studyID int64, before time.Time, dead ...string) ([]Trial, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	if _, err := m.study(studyID); err != nil {
		return nil, fmt.Errorf("storage: reap: %w", err)
	}
	var failed []Trial
	now := clock(m.now)
	ids := m.ofStudy[studyID-1]
	for _, id := range ids[:len(ids):len(ids)] { // requeued trials are appended past the end
		t := m.trials[id-1]
		if t.State != Running || !t.Heartbeat.Before(before) && !slices.Contains(dead, t.Worker) {
			continue
		}
		t.State, t.Reason, t.Finished = Failed, reapReason(*t, dead), now
		m.touch(t)
		failed = append(failed, cloneTrial(*t))
		if t.RetryOf >= 0 && lost(m.trials[ids[t.RetryOf]-1].Reason) || m.retried[[2]int64{studyID, int64(t.Number)}] {
			continue // a configuration lost twice is not re-run forever
		}
		m.insert(&Trial{
			StudyID: studyID, Params: cloneRaw(t.Params), X: cloneFloats(t.X),
			State: Waiting, RetryOf: t.Number, Batch: t.Batch, Origin: t.Origin, Created: now,
		})
	}
	return failed, nil
}

func (m *Memory) Lock(ctx context.Context, studyID int64, holder string, ttl time.Duration) (*Lease, error) {
	if err := validateLock(studyID, ttl); err != nil {
		return nil, err
	}
	var token uint64
	try := func() (bool, error) {
		if err := m.lock(ctx); err != nil {
			return false, err
		}
		defer m.mu.Unlock()
		if _, err := m.study(studyID); err != nil {
			return false, fmt.Errorf("storage: lock: %w", err)
		}
		now := m.now()
		if l, ok := m.leases[studyID]; ok && now.Before(l.expires) {
			return false, nil
		}
		m.nextTok++
		token = m.nextTok
		m.leases[studyID] = memLease{token: token, expires: now.Add(ttl)}
		return true, nil
	}
	if err := pollLock(ctx, studyID, holder, try); err != nil {
		return nil, err
	}
	// held runs f on the leases if this holder's is still there.
	held := func(what string, f func()) error {
		m.mu.Lock()
		defer m.mu.Unlock()
		if l, ok := m.leases[studyID]; !ok || l.token != token {
			return leaseLostError(what, studyID, holder)
		}
		f()
		return nil
	}
	renew := func(context.Context) error {
		return held("renew the lease of", func() { m.leases[studyID] = memLease{token: token, expires: m.now().Add(ttl)} })
	}
	unlock := func() error {
		return held("unlock", func() { delete(m.leases, studyID) })
	}
	return &Lease{renew: renew, unlock: unlock}, nil
}

func (m *Memory) PutState(ctx context.Context, studyID int64, key string, value []byte) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if _, err := m.study(studyID); err != nil {
		return fmt.Errorf("storage: put state %q: %w", key, err)
	}
	m.state[memKey{studyID, key}] = append([]byte{}, value...)
	return nil
}

func (m *Memory) GetState(ctx context.Context, studyID int64, key string) ([]byte, error) {
	if err := m.lock(ctx); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	v, ok := m.state[memKey{studyID, key}]
	if !ok {
		return nil, fmt.Errorf("storage: state %q of study %d: %w", key, studyID, ErrNotFound)
	}
	return append([]byte{}, v...), nil
}

// DeleteStudy removes the study, its trials, state and lease. Their slots
// stay, nil, so that ids are not reused, as in the SQL back-ends.
func (m *Memory) DeleteStudy(ctx context.Context, name string) error {
	if err := m.lock(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	s, ok := m.byName[name]
	if !ok {
		return fmt.Errorf("storage: delete study %q: %w", name, ErrNotFound)
	}
	for _, id := range m.ofStudy[s.ID-1] {
		t := m.trials[id-1]
		delete(m.retried, [2]int64{s.ID, int64(t.RetryOf)})
		m.trials[id-1] = nil
	}
	for k := range m.state {
		if k.study == s.ID {
			delete(m.state, k)
		}
	}
	delete(m.leases, s.ID)
	delete(m.byName, name)
	m.ofStudy[s.ID-1] = nil
	m.studies[s.ID-1] = nil
	return nil
}

func (m *Memory) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
