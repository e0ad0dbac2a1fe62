package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// entry is a study as this process serves it. The study.Study is only a
// view of the storage (decoded space, sampler, name), so caching it is
// safe with other processes changing the same study.
type entry struct {
	st *study.Study
	// turn lets one ask of this study run at a time in this process: asks
	// are serialised by the storage's suggestion lease anyway, waiting here
	// is cheaper than polling the lease, and Study.SetWorker is per value.
	turn chan struct{}
}

// cache maps study names and ids to entries; a miss goes to the storage.
// Ids are never reused, so an id's entry is right while its study exists;
// a name's is checked on each hit, since another process sharing the
// storage may have deleted the study and created another of that name.
type cache struct {
	store storage.Storage
	lease time.Duration
	mu    sync.Mutex
	names map[string]*entry
	ids   map[int64]*entry
}

func newCache(store storage.Storage, lease time.Duration) *cache {
	return &cache{store: store, lease: lease, names: map[string]*entry{}, ids: map[int64]*entry{}}
}

// byName returns the study called name; a 404 naming it if there is none.
func (c *cache) byName(ctx context.Context, name string) (*entry, error) {
	c.mu.Lock()
	e, ok := c.names[name]
	c.mu.Unlock()
	if ok {
		// One indexed read. When it fails otherwise (the database is
		// down) the entry is used: what follows reads the storage and
		// fails there, or not, as before deletion existed.
		rec, err := c.store.GetStudy(ctx, name)
		switch {
		case err == nil && rec.ID == e.st.ID():
			return e, nil
		case err == nil || errors.Is(err, storage.ErrNotFound):
			c.forget(name)
		default:
			return e, nil
		}
	}
	st, err := study.Open(ctx, c.store, name)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, errorf(http.StatusNotFound, "study %q not found", name)
	}
	if err != nil {
		return nil, err
	}
	st.SetLease(c.lease)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.names[name]; ok {
		return e, nil // another request opened it meanwhile
	}
	e = &entry{st: st, turn: make(chan struct{}, 1)}
	c.names[name], c.ids[st.ID()] = e, e
	return e, nil
}

// forget drops the entry of a deleted study.
func (c *cache) forget(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.names[name]; ok {
		delete(c.ids, e.st.ID())
		delete(c.names, name)
	}
}

// byID returns the study with storage id; on a miss the list of studies
// is read again, since another process may have created it.
func (c *cache) byID(ctx context.Context, id int64) (*entry, error) {
	c.mu.Lock()
	e, ok := c.ids[id]
	c.mu.Unlock()
	if ok {
		return e, nil
	}
	all, err := c.store.ListStudies(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range all {
		if s.ID == id {
			return c.byName(ctx, s.Name)
		}
	}
	return nil, fmt.Errorf("study %d of a stored trial: %w", id, storage.ErrNotFound)
}

// lock takes the study's turn to ask, or gives up with ctx.
func (e *entry) lock(ctx context.Context) error {
	select {
	case e.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (e *entry) unlock() { <-e.turn }
