package study

import (
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// TestIncrementalReads runs the same study twice, once reading only the
// changed trials on each ask and once reading everything, with another
// Study value on the same storage asking and telling between the asks:
// the suggestions must be the same, and so must the History the
// incremental reads build and the one a full read builds.
func TestIncrementalReads(t *testing.T) {
	for _, name := range []string{"random", "sobol", "tpe", "gpbo"} {
		t.Run(name, func(t *testing.T) {
			rounds := 24
			if name == "gpbo" {
				rounds = 12
			}
			var xs [2][][]float64
			for k, full := range []bool{false, true} {
				store, err := storage.OpenSQLite(bg, filepath.Join(t.TempDir(), "boa.db"))
				if err != nil {
					t.Fatal(err)
				}
				defer store.Close()
				sp := space.MustNew(
					space.Param{Name: "x", Kind: space.Float, Low: -2, High: 2},
					space.Param{Name: "k", Kind: space.Categorical, Choices: []string{"a", "b", "c"}})
				st, err := Create(bg, store, Spec{Name: "inc", Space: sp, Sampler: name, Seed: 7})
				if err != nil {
					t.Fatal(err)
				}
				st.cache.full = full
				other, err := Open(bg, store, "inc")
				if err != nil {
					t.Fatal(err)
				}
				other.SetWorker("other")
				var running []Trial
				for i := range rounds {
					tr, err := st.Ask(bg)
					if err != nil {
						t.Fatal(err)
					}
					xs[k] = append(xs[k], tr.X)
					if err := st.Tell(bg, tr.ID, Result{Value: tr.X[0] * tr.X[0]}); err != nil {
						t.Fatal(err)
					}
					// The other Study value: a trial left running, then
					// finished, failed with a re-queue, or pruned a round later.
					for _, o := range running {
						r := Result{Value: o.X[0]}
						switch i % 3 {
						case 0:
							r = Result{Err: errors.New("killed"), Requeue: true}
						case 1:
							r.Pruned = true
						}
						if err := other.Tell(bg, o.ID, r); err != nil {
							t.Fatal(err)
						}
					}
					running = running[:0]
					if o, err := other.Ask(bg); err != nil {
						t.Fatal(err)
					} else {
						running = append(running, o)
					}
					if full {
						continue
					}
					recs, err := st.records(bg)
					if err != nil {
						t.Fatal(err)
					}
					all, err := store.TrialsWithoutReports(bg, st.ID())
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(recs, all) {
						t.Fatalf("round %d: the merged trials differ from a full read", i)
					}
					h1, err := st.history(recs)
					if err != nil {
						t.Fatal(err)
					}
					h2, err := st.history(all)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(h1, h2) {
						t.Fatalf("round %d: History from the merged trials\n%+v\nfrom a full read\n%+v", i, h1, h2)
					}
				}
			}
			if !slices.EqualFunc(xs[0], xs[1], slices.Equal) {
				t.Errorf("suggestions differ:\nincremental %v\nfull read   %v", xs[0], xs[1])
			}
		})
	}
}
