package storage_test

import (
	"fmt"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// dropIndexBySeq drops the index of version 5, which both dialects
// want gone before its column.
const dropIndexBySeq = `DROP INDEX trials_by_seq`

// rollBack runs the statements that undo the migrations after version,
// forgets those migrations, and opens url again, which migrates it.
func rollBack(t *testing.T, url string, exec func(query string) error, version int, undo ...string) storage.Storage {
	t.Helper()
	for _, q := range append(undo, fmt.Sprintf(`DELETE FROM schema_version WHERE version > %d`, version)) {
		if err := exec(q); err != nil {
			t.Fatalf("back to version %d: %s: %v", version, q, err)
		}
	}
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("open a version-%d database: %v", version, err)
	}
	return s
}

// upgradeFromVersion4 turns the database back into schema version 4 (no
// change numbers) and checks that Open migrates it: a reader from 0
// reads every trial, and a change after the upgrade is read after them.
func upgradeFromVersion4(t *testing.T, url string, exec func(query string) error) {
	t.Helper()
	s, st := openKept(t, url)
	for range 3 {
		if _, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = rollBack(t, url, exec, 4, dropValues, dropIndexBySeq, `ALTER TABLE trials DROP COLUMN seq`, `ALTER TABLE studies DROP COLUMN next_seq`)
	defer s.Close()
	c := &storagetest.Changes{StudyID: st.ID}
	if n := c.Read(t, s); n < 3 {
		t.Errorf("a version-4 database: %d trials read from 0, want all (at least 3)", n)
	}
	c.Check(t, s, "the upgrade")
	if _, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1}); err != nil {
		t.Fatal(err)
	}
	if n := c.Read(t, s); n != 1 {
		t.Errorf("after the upgrade: %d trials changed by an add, want 1", n)
	}
	c.Check(t, s, "an add after the upgrade")
}
