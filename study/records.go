package study

import (
	"context"
	"slices"
	"sync"

	"github.com/boaopt/boa/storage"
)

// records is what the study has read of its trials (without reports),
// kept between asks so that each reads only the trials changed since
// (storage's TrialsChangedSince): at 20,000 trials the full read was most
// of an ask of random or tpe.
type records struct {
	mu   sync.Mutex
	recs []storage.Trial // by Number; shared with callers, never written in place
	last int64           // the change number recs are up to date with
	full bool            // read everything on every call (tests compare the two)
}

// records returns the study's trials as TrialsWithoutReports reads them.
// Another process's changes are merged in like this one's.
func (s *Study) records(ctx context.Context) ([]storage.Trial, error) {
	c := &s.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.full {
		return s.store.TrialsWithoutReports(ctx, s.rec.ID)
	}
	ts, last, err := s.store.TrialsChangedSince(ctx, s.rec.ID, c.last)
	if err != nil {
		return nil, err
	}
	recs, ok := merge(c.recs, ts)
	if !ok {
		// A trial came back with a number past the end of what was read,
		// which numbers without gaps rule out; rather than trust a hole,
		// read everything again.
		if ts, last, err = s.store.TrialsChangedSince(ctx, s.rec.ID, 0); err != nil {
			return nil, err
		}
		if recs, ok = merge(nil, ts); !ok {
			return nil, s.errorf("trial numbers with a gap before %d", len(recs))
		}
	}
	c.recs, c.last = recs, last
	return recs, nil
}

// merge returns recs with the changed trials ts (ordered by number) in
// place of their older versions and the new ones appended. recs is
// copied before a trial in it is replaced, since callers may still hold
// it; appending past its length leaves what they see unchanged. ok is
// false when a number would leave a gap.
func merge(recs, ts []storage.Trial) ([]storage.Trial, bool) {
	copied := false
	for _, t := range ts {
		switch {
		case t.Number < len(recs):
			if !copied {
				recs, copied = slices.Clone(recs), true
			}
			recs[t.Number] = t
		case t.Number == len(recs):
			recs = append(recs, t)
		default:
			return recs, false
		}
	}
	if recs == nil {
		recs = []storage.Trial{}
	}
	return recs, true
}
