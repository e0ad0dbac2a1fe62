package bo

import (
	"slices"
	"sync"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// Tried is Seen kept between asks: each point's configuration key is
// computed once, when the point first appears, rather than for every
// trial on every ask (Space.Key formats each value; at 20,000 trials
// that was a fifth of a tpe suggestion). A point is known by its
// backing array, which a study shares between the Histories of its asks
// (study.records never writes a trial in place), and by a copy of its
// coordinates, so a point rewritten in place is keyed again; points gone
// from the history leave the set. A new Space starts afresh. The set it
// answers is always Seen(h)'s. The zero value is ready; it is safe for
// concurrent use.
type Tried struct {
	mu    sync.Mutex
	sp    *space.Space
	gen   uint64
	pts   map[*float64]*triedPoint
	count map[string]int // key → number of points of the history with it
}

type triedPoint struct {
	x   []float64 // the coordinates the key was computed from
	key string
	gen uint64 // the last update that found the point in the history
}

// Excluded is bo.Excluded(h) answered from the kept set. done must be
// called when excluded is no longer used; until then the set is h's.
// While another ask holds it, or when h has a point without coordinates,
// this ask builds Seen(h) itself.
func (t *Tried) Excluded(h *sampler.History) (excluded func(u []float64) bool, done func()) {
	if !t.mu.TryLock() {
		return Excluded(h), func() {}
	}
	if !t.update(h) {
		t.mu.Unlock()
		return Excluded(h), func() {}
	}
	return func(u []float64) bool { return t.count[h.Space.Key(u)] > 0 || !h.Admits(u) }, t.mu.Unlock
}

// update makes the set h's: false when a point has no coordinates to
// know it by (the set is then emptied).
func (t *Tried) update(h *sampler.History) bool {
	sp := h.Space
	if t.sp != sp || t.pts == nil {
		t.sp, t.pts, t.count = sp, map[*float64]*triedPoint{}, map[string]int{}
	}
	t.gen++
	live := 0
	visit := func(u []float64) bool {
		if len(u) == 0 {
			return false
		}
		p := t.pts[&u[0]]
		switch {
		case p != nil && slices.Equal(p.x, u):
		case p != nil: // rewritten in place
			t.drop(p.key)
			p.x, p.key = slices.Clone(u), sp.Key(u)
			t.count[p.key]++
		default:
			p = &triedPoint{x: slices.Clone(u), key: sp.Key(u)}
			t.pts[&u[0]] = p
			t.count[p.key]++
		}
		if p.gen != t.gen {
			p.gen = t.gen
			live++
		}
		return true
	}
	ok := true
	for _, o := range h.Observed {
		ok = ok && visit(o.X)
	}
	for _, xs := range [][][]float64{h.Pending, h.Failed, h.Pruned} {
		for _, u := range xs {
			ok = ok && visit(u)
		}
	}
	if !ok {
		t.sp, t.pts, t.count = nil, nil, nil
		return false
	}
	if live < len(t.pts) {
		for k, p := range t.pts {
			if p.gen != t.gen {
				t.drop(p.key)
				delete(t.pts, k)
			}
		}
	}
	return true
}

// drop removes one point with key from the counts.
func (t *Tried) drop(key string) {
	if t.count[key]--; t.count[key] <= 0 {
		delete(t.count, key)
	}
}
