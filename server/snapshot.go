package server

import (
	"context"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// snapshotTTL is how long the dashboard's view of a study is reused. A
// study page asks for its analyses, its table and its summary at once; on
// a 50,000-trial study each reading every trial (about 1.8 s on 2 cores)
// would take the first render past its 2 s target, so they share one
// read. The page polls every 4 s, so a running study shows trials at most
// a few seconds old.
const snapshotTTL = 3 * time.Second

// modelTrials bounds the COMPLETE trials that importances and contours fit
// their forest to, on top of package analysis's own bound (2,000 best and
// 2,000 others): the best half and a seeded sample of the rest. At 50,000
// trials the analysis's bound takes 1.4 s, this one a fraction of it,
// and a page must draw in under 2 s.
const modelTrials = 1000

// snapshot is a study as the dashboard shows it at one moment: its stored
// record, its trials read once, and the analyses computed from them so
// far (memo), which later requests within the TTL reuse.
type snapshot struct {
	rec    storage.Study
	st     *study.Study
	trials []study.Trial
	an     analysis.Study
	at     time.Time
	took   time.Duration // how long reading it took

	mu   sync.Mutex
	memo map[string]any

	modelOnce sync.Once
	model     analysis.Study // an at most modelTrials-COMPLETE-trial sample of an (modelled)
}

// modelled is the study with at most modelTrials of its COMPLETE trials
// (and none of the others), for the forest-based analyses.
func (sn *snapshot) modelled() analysis.Study {
	sn.modelOnce.Do(func() {
		var complete []int
		for i, t := range sn.trials {
			if t.State == study.Complete && !math.IsNaN(t.Value) {
				complete = append(complete, i)
			}
		}
		keep := bounded(len(complete), modelTrials, byValue(sn.an.Direction, func(i int) float64 { return sn.trials[complete[i]].Value }), sn.st.Seed())
		ts := make([]study.Trial, len(keep))
		for k, i := range keep {
			ts[k] = sn.trials[complete[i]]
		}
		sn.model = analysis.Study{Space: sn.an.Space, Direction: sn.an.Direction, Trials: ts}
	})
	return sn.model
}

// ttl is how long sn is fresh: snapshotTTL, or five times what reading
// it took, so that a page left open on a large running study (2 s to read
// 50,000 trials) spends at most a fifth of a core re-reading it.
func (sn *snapshot) ttl() time.Duration { return max(snapshotTTL, 5*sn.took) }

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
// study: requests that arrive during a study's first load wait for it;
// later ones get the last snapshot while a fresher one loads.
type snapshots struct {
	studies  *cache
	store    storage.Storage
	mu       sync.Mutex
	loading  map[string]*loadCall
	previous map[string]*snapshot // the last snapshot loaded, for answers while the next loads
}

type loadCall struct {
	done chan struct{}
	sn   *snapshot
	err  error
}

func newSnapshots(c *cache, store storage.Storage) *snapshots {
	return &snapshots{studies: c, store: store, loading: map[string]*loadCall{}, previous: map[string]*snapshot{}}
}

func (ss *snapshots) get(ctx context.Context, name string) (*snapshot, error) {
	ss.mu.Lock()
	c, ok := ss.loading[name]
	var stale *snapshot
	if ok {
		select {
		case <-c.done:
			switch {
			case c.err != nil:
				ok = false
			case time.Since(c.sn.at) > c.sn.ttl():
				// Answer from the old view at once and read the new one
				// in the background: a page's requests never wait for a
				// reload, only for a study's first load.
				ok, stale = false, c.sn
			}
		default: // loading: wait for it below, or answer from the old view
			stale = ss.previous[name]
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
			sn, err := ss.load(lctx, name)
			ss.mu.Lock()
			c.sn, c.err = sn, err
			if err == nil {
				ss.previous[name] = sn
			}
			ss.mu.Unlock()
			close(c.done)
		}()
	}
	ss.mu.Unlock()
	if stale != nil {
		return stale, nil
	}
	select {
	case <-c.done:
		return c.sn, c.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// forget drops a deleted study's snapshots. A load under way finishes
// into its own call, which nobody finds any more.
func (ss *snapshots) forget(name string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.loading, name)
	delete(ss.previous, name)
}

func (ss *snapshots) load(ctx context.Context, name string) (*snapshot, error) {
	start := time.Now()
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
		rec: rec, st: e.st, trials: trials, at: time.Now(), took: time.Since(start), memo: map[string]any{},
		an: analysis.Study{Space: e.st.Space(), Direction: e.st.Direction(), Trials: trials},
	}, nil
}

// preload reads the snapshots of the newest studies, one after another,
// until about limit trials are held (Options.Preload). A study that fails
// to load is logged and skipped: its page will say why.
func (ss *snapshots) preload(limit int, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	all, err := ss.store.ListStudies(ctx)
	if err != nil {
		log.Warn("dashboard: preload: list studies", "error", err)
		return
	}
	held := 0
	for i := len(all) - 1; i >= 0 && held < limit; i-- {
		sn, err := ss.get(ctx, all[i].Name)
		if err != nil {
			log.Warn("dashboard: preload", "study", all[i].Name, "error", err)
			continue
		}
		held += len(sn.trials)
	}
}
