package storagetest

import (
	"testing"

	"github.com/boaopt/boa/storage"
)

// testFeasible: a COMPLETE trial's verdict round-trips as true, false or
// nil (not judged) with the reason of an infeasible one; only a COMPLETE
// trial takes one; AddTrial ignores it; and neither a re-queued trial nor
// a reaped one has any.
func testFeasible(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	yes, no := true, false
	for i, want := range []*bool{&yes, &no, nil} {
		tr := add(t, s, st.ID, storage.Running, i)
		f := storage.Finish{State: storage.Complete, Value: ptr(1), Metrics: map[string]float64{"ram_kb": 300}, Feasible: want}
		if want == &no {
			f.Reason = "infeasible: ram_kb = 300, want <= 256"
		}
		if err := s.FinishTrial(ctx(t), tr.ID, f); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetTrial(ctx(t), tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		all, err := s.TrialsWithoutReports(ctx(t), st.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []storage.Trial{got, all[i]} {
			if (g.Feasible == nil) != (want == nil) || (want != nil && *g.Feasible != *want) || g.Reason != f.Reason {
				t.Errorf("trial %d: Feasible %v, reason %q; want %v, %q", i, show(g.Feasible), g.Reason, show(want), f.Reason)
			}
		}
		if want != nil {
			*got.Feasible = !*got.Feasible
			if again, _ := s.GetTrial(ctx(t), tr.ID); *again.Feasible != *want {
				t.Errorf("the stored verdict aliases a returned one")
			}
		}
	}

	tr := add(t, s, st.ID, storage.Running, 3)
	for _, f := range []storage.Finish{
		{State: storage.Failed, Reason: "boom", Feasible: &no},
		{State: storage.Pruned, Value: ptr(1), Feasible: &yes},
	} {
		wantInvalid(t, "FinishTrial "+f.State.String()+" with a verdict", s.FinishTrial(ctx(t), tr.ID, f))
	}
	added, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Feasible: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if added.Feasible != nil {
		t.Errorf("AddTrial kept a verdict: %v", show(added.Feasible))
	}
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Failed, Reason: "interrupted", Requeue: true}); err != nil {
		t.Fatal(err)
	}
	cut := staleCut()
	if _, err := s.Reap(ctx(t), st.ID, cut); err != nil {
		t.Fatal(err)
	}
	all, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 7 {
		t.Fatalf("%d trials, want 7 (3 finished, the failed one, the added one reaped, two re-runs)", len(all))
	}
	for _, g := range all[3:] {
		if g.Feasible != nil {
			t.Errorf("trial %d (%v, RetryOf %d) has a verdict %v; a FAILED or re-queued trial has none", g.Number, g.State, g.RetryOf, show(g.Feasible))
		}
	}
}

func show(b *bool) any {
	if b == nil {
		return "nil"
	}
	return *b
}
