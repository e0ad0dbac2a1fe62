package storage_test

import (
	"slices"
	"testing"

	"github.com/boaopt/boa/storage"
)

// dropValues undoes version 6.
const dropValues = `ALTER TABLE trials DROP COLUMN objective_values`

// openKept opens the database url and its study "kept", which
// testMigrations created.
func openKept(t *testing.T, url string) (storage.Storage, storage.Study) {
	t.Helper()
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.GetStudy(t.Context(), "kept")
	if err != nil {
		t.Fatal(err)
	}
	return s, st
}

// finished adds a RUNNING trial to the study and finishes it with f.
func finished(t *testing.T, s storage.Storage, studyID int64, f storage.Finish) int64 {
	t.Helper()
	tr, err := s.AddTrial(t.Context(), storage.Trial{StudyID: studyID, State: storage.Running, RetryOf: -1})
	if err == nil {
		err = s.FinishTrial(t.Context(), tr.ID, f)
	}
	if err != nil {
		t.Fatal(err)
	}
	return tr.ID
}

// upgradeFromVersion5 turns the database back into schema version 5 (no
// objective values) with a COMPLETE trial in it, and checks that Open
// migrates it: the old trial has one value and no vector, and a trial
// finished after the upgrade keeps its vector.
func upgradeFromVersion5(t *testing.T, url string, exec func(query string) error) {
	t.Helper()
	s, st := openKept(t, url)
	one := 1.0
	old := finished(t, s, st.ID, storage.Finish{State: storage.Complete, Value: &one})
	s.Close()
	s = rollBack(t, url, exec, 5, dropValues)
	defer s.Close()
	if got, err := s.GetTrial(t.Context(), old); err != nil || *got.Value != 1 || got.Values != nil {
		t.Errorf("trial from version 5 = %+v, %v; want value 1, no vector", got, err)
	}
	id := finished(t, s, st.ID, storage.Finish{State: storage.Complete, Value: &one, Values: []float64{1, 2}})
	if got, err := s.GetTrial(t.Context(), id); err != nil || !slices.Equal(got.Values, []float64{1, 2}) {
		t.Errorf("trial finished after the upgrade = %+v, %v; want values [1 2]", got, err)
	}
}
