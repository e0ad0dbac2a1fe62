package server

import (
	"context"
	"sync"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// snapshotTTL is how long the dashboard's view of a study is reused. A
// study page asks for its analyses, its table and its summary at once; on
// a 50,000-trial study each reading every trial would take the first
// render past its 2 s target, so they share one read. The page polls every
// few seconds, so a view a second old is as live as it can show.
const snapshotTTL = time.Second

// snapshot is a study as the dashboard shows it at one moment: its stored
// record, its trials read once, and the analyses computed from them so
// far (memo), which later requests within the TTL reuse.
type snapshot struct {
	rec    storage.Study
	st     *study.Study
	trials []study.Trial
	an     analysis.Study
	at     time.Time

	mu   sync.Mutex
	memo map[string]any
}

// memoize returns the value computed for key, computing it once.
func (sn *snapshot) memoize(key string, f func() any) any {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if v, ok := sn.memo[key]; ok {
		return v
	}
	v := f()
	sn.memo[key] = v
	return v
}

// records gives the trials back in the storage's form with what
// study.Summarize reads, so the summary needs no second read.
func (sn *snapshot) records() []storage.Trial {
	out := make([]storage.Trial, len(sn.trials))
	for i, t := range sn.trials {
		out[i] = storage.Trial{Number: t.Number, State: t.State, Feasible: t.Feasible, RetryOf: t.RetryOf, Started: t.Started, Finished: t.Finished}
		if t.State == study.Complete || t.State == study.Pruned {
			v := t.Value
			out[i].Value = &v
		}
	}
	return out
}

// snapshots hands out each study's snapshot, one load at a time per
// study: requests that arrive while it loads wait for it.
type snapshots struct {
	studies *cache
	store   storage.Storage
	mu      sync.Mutex
	loading map[string]*loadCall
}

type loadCall struct {
	done chan struct{}
	sn   *snapshot
	err  error
}

func newSnapshots(c *cache, store storage.Storage) *snapshots {
	return &snapshots{studies: c, store: store, loading: map[string]*loadCall{}}
}

func (ss *snapshots) get(ctx context.Context, name string) (*snapshot, error) {
	ss.mu.Lock()
	c, ok := ss.loading[name]
	if ok {
		select {
		case <-c.done:
			if c.err != nil || time.Since(c.sn.at) > snapshotTTL {
				ok = false
			}
		default: // loading: wait for it below
		}
	}
	if !ok {
		c = &loadCall{done: make(chan struct{})}
		ss.loading[name] = c
		go func() {
			// Not the request's context: the requests waiting for this
			// load share it, and one going away must not fail the others.
			lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			defer cancel()
			c.sn, c.err = ss.load(lctx, name)
			close(c.done)
		}()
	}
	ss.mu.Unlock()
	select {
	case <-c.done:
		return c.sn, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (ss *snapshots) load(ctx context.Context, name string) (*snapshot, error) {
	e, err := ss.studies.byName(ctx, name)
	if err != nil {
		return nil, err
	}
	rec, err := ss.store.GetStudy(ctx, name)
	if err != nil {
		return nil, err
	}
	trials, err := e.st.Trials(ctx)
	if err != nil {
		return nil, err
	}
	return &snapshot{
		rec: rec, st: e.st, trials: trials, at: time.Now(), memo: map[string]any{},
		an: analysis.Study{Space: e.st.Space(), Direction: e.st.Direction(), Trials: trials},
	}, nil
}
