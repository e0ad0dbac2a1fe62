package storagetest

import (
	"math"
	"slices"
	"testing"

	"github.com/boaopt/boa/storage"
)

// testValues: a multi-objective trial's value vector round-trips bit for
// bit through GetTrial, Trials and TrialsWithoutReports, is not aliased,
// and is nil for a single-objective trial; a vector whose first value is
// not Value, a non-finite one, or one for a trial that is not COMPLETE is
// ErrInvalid; AddTrial ignores one, and a re-queued copy has none.
func testValues(t *testing.T, s storage.Storage) {
	st := NewStudy(t, s, "s")
	want := []float64{0.1 + 0.2, -1e-300, 12345.678}
	tr := add(t, s, st.ID, storage.Running, 0)
	if err := s.FinishTrial(ctx(t), tr.ID, storage.Finish{State: storage.Complete, Value: ptr(want[0]), Values: want}); err != nil {
		t.Fatal(err)
	}
	one := add(t, s, st.ID, storage.Running, 1)
	if err := s.FinishTrial(ctx(t), one.ID, storage.Finish{State: storage.Complete, Value: ptr(2)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetTrial(ctx(t), tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Trials(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	bare, err := s.TrialsWithoutReports(ctx(t), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []storage.Trial{got, all[0], bare[0]} {
		if !slices.Equal(g.Values, want) {
			t.Errorf("Values %v, want %v", g.Values, want)
		}
	}
	for _, g := range []storage.Trial{all[1], bare[1]} {
		if g.Values != nil {
			t.Errorf("a single-objective trial has Values %v, want nil", g.Values)
		}
	}
	got.Values[0] = 99
	if again, _ := s.GetTrial(ctx(t), tr.ID); again.Values[0] != want[0] {
		t.Errorf("the stored values alias a returned trial's")
	}

	bad := add(t, s, st.ID, storage.Running, 2)
	for what, f := range map[string]storage.Finish{
		"a first value other than Value": {State: storage.Complete, Value: ptr(1), Values: []float64{2, 3}},
		"a NaN value":                    {State: storage.Complete, Value: ptr(1), Values: []float64{1, math.NaN()}},
		"an infinite value":              {State: storage.Complete, Value: ptr(1), Values: []float64{1, math.Inf(-1)}},
		"values for a PRUNED trial":      {State: storage.Pruned, Value: ptr(1), Values: []float64{1, 2}},
		"values for a FAILED trial":      {State: storage.Failed, Reason: "x", Values: []float64{1, 2}},
	} {
		wantInvalid(t, "FinishTrial with "+what, s.FinishTrial(ctx(t), bad.ID, f))
	}
	added, err := s.AddTrial(ctx(t), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1, Values: []float64{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if added.Values != nil {
		t.Errorf("AddTrial kept values %v", added.Values)
	}
}
