package storage_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

func TestOpenURLs(t *testing.T) {
	for _, tc := range []struct {
		url, wantErr string
	}{
		{"memory:", ""},
		{"sqlite:" + filepath.Join(t.TempDir(), "a.db"), ""},
		{"sqlite:///" + filepath.Join(t.TempDir(), "b.db"), ""}, // SQLAlchemy's absolute form: four slashes
		{"mysql://u@h/db", "want memory:, sqlite:PATH"},
		{"boa.db", "want memory:, sqlite:PATH"},
		{"sqlite:", "names no file"},
		{"sqlite:" + filepath.Join(t.TempDir(), "no", "such", "dir", "c.db"), "directory"},
		{"postgres://u:secret@127.0.0.1:1/db?sslmode=disable&connect_timeout=2", "connect to postgres 127.0.0.1:1/db"},
	} {
		s, err := storage.Open(t.Context(), tc.url)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Open(%q): %v", tc.url, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("Open(%q) = %v, want an error containing %q", tc.url, err, tc.wantErr)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("Open(%q) error leaks the password: %v", tc.url, err)
		}
		if s != nil {
			s.Close()
		}
	}
}

// testMigrations checks that reopening keeps the data and does not migrate
// again, and that a schema newer than this build is refused. exec runs SQL
// directly on the database that url names.
func testMigrations(t *testing.T, url string, exec func(query string) error) {
	s, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateStudy(t.Context(), storage.Study{Name: "kept", Direction: "minimize"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = storage.Open(t.Context(), url)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	if _, err := s.GetStudy(t.Context(), "kept"); err != nil {
		t.Errorf("study lost on reopen: %v", err)
	}
	s.Close()
	upgradeFromVersion5(t, url, exec)
	upgradeFromVersion4(t, url, exec)
	upgradeFromVersion3(t, url, exec)
	upgradeFromVersion1(t, url, exec)
	if err := exec(`INSERT INTO schema_version (version, applied_us) VALUES (99, 0)`); err != nil {
		t.Fatal(err)
	}
	_, err = storage.Open(t.Context(), url)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open of a newer schema = %v, want a 'newer than this boa' error", err)
	}
}

// upgradeFromVersion1 turns the database back into schema version 1 (no
// trials.batch, no trials.origin) with a trial in it, and checks that Open
// migrates it: the old trial is in no batch and has no origin, and a new
// one keeps both.
func upgradeFromVersion1(t *testing.T, url string, exec func(query string) error) {
	t.Helper()
	s, st := openKept(t, url)
	old, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, RetryOf: -1, Batch: 3, Origin: "design"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = rollBack(t, url, exec, 1, dropValues, dropIndexBySeq, `ALTER TABLE trials DROP COLUMN seq`, `ALTER TABLE studies DROP COLUMN next_seq`,
		`ALTER TABLE trials DROP COLUMN batch`, `ALTER TABLE trials DROP COLUMN origin`, `ALTER TABLE trials DROP COLUMN feasible`)
	defer s.Close()
	if got, err := s.GetTrial(t.Context(), old.ID); err != nil || got.Batch != 0 || got.Origin != "" {
		t.Errorf("trial from version 1 = %+v, %v; want Batch 0, no Origin", got, err)
	}
	tr, err := s.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, RetryOf: -1, Batch: 2, Origin: "model"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetTrial(t.Context(), tr.ID); err != nil || got.Batch != 2 || got.Origin != "model" {
		t.Errorf("trial added after the upgrade = %+v, %v; want Batch 2, Origin model", got, err)
	}
}

// upgradeFromVersion3 turns the database back into schema version 3 (no
// trials.feasible) with a COMPLETE trial in it, and checks that Open
// migrates it: the old trial is not judged, a new one keeps its verdict.
func upgradeFromVersion3(t *testing.T, url string, exec func(query string) error) {
	t.Helper()
	s, st := openKept(t, url)
	one := 1.0
	old := finished(t, s, st.ID, storage.Finish{State: storage.Complete, Value: &one})
	s.Close()
	s = rollBack(t, url, exec, 3, dropValues, dropIndexBySeq, `ALTER TABLE trials DROP COLUMN seq`, `ALTER TABLE studies DROP COLUMN next_seq`,
		`ALTER TABLE trials DROP COLUMN feasible`)
	defer s.Close()
	if got, err := s.GetTrial(t.Context(), old); err != nil || got.State != storage.Complete || got.Feasible != nil {
		t.Errorf("trial from version 3 = %+v, %v; want COMPLETE, not judged", got, err)
	}
	no := false
	id := finished(t, s, st.ID, storage.Finish{State: storage.Complete, Value: &one, Feasible: &no, Reason: "infeasible: m not reported"})
	if got, err := s.GetTrial(t.Context(), id); err != nil || got.Feasible == nil || *got.Feasible {
		t.Errorf("trial finished after the upgrade = %+v, %v; want Feasible false", got, err)
	}
}

func TestMigrationsSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	testMigrations(t, "sqlite:"+path, func(q string) error {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(q)
		return err
	})
}

func TestMigrationsPostgres(t *testing.T) {
	url := storagetest.PostgresURL(t, false)
	testMigrations(t, url, func(q string) error {
		db, err := sql.Open("pgx", url)
		if err != nil {
			return err
		}
		defer db.Close()
		_, err = db.Exec(q)
		return err
	})
}

func TestStateNames(t *testing.T) {
	for s := storage.Waiting; s <= storage.Failed; s++ {
		got, err := storage.ParseState(strings.ToLower(s.String()))
		if err != nil || got != s {
			t.Errorf("ParseState(%q) = %v, %v", s, got, err)
		}
		if s.Finished() != (s >= storage.Complete) {
			t.Errorf("%v.Finished() = %v", s, s.Finished())
		}
	}
	if _, err := storage.ParseState("DONE"); err == nil {
		t.Error("ParseState accepted DONE")
	}
	if got := storage.State(9).String(); got != "State(9)" {
		t.Errorf("String of an invalid state = %q", got)
	}
	if errors.Is(storage.ErrFinished, storage.ErrNotFound) {
		t.Error("sentinels are not distinct")
	}
}

// TestSQLitePath: sqlite:PATH, and SQLAlchemy's forms as Optuna users
// write them, sqlite:///relative.db and sqlite:////absolute.db.
func TestSQLitePath(t *testing.T) {
	for url, want := range map[string]string{
		"sqlite:boa.db":         "boa.db",
		"sqlite:/srv/boa.db":    "/srv/boa.db",
		"sqlite:///boa.db":      "boa.db",
		"sqlite:///dir/boa.db":  "dir/boa.db",
		"sqlite:////srv/boa.db": "/srv/boa.db",
		"sqlite://boa.db":       "boa.db",
		"postgres://h/db":       "",
		"memory:":               "",
	} {
		if got := storage.SQLitePath(url); got != want {
			t.Errorf("SQLitePath(%q) = %q, want %q", url, got, want)
		}
	}
}

// TestOpenNotADatabase: a file that is not an SQLite database is named as
// such, without the hint about a missing or read-only directory.
func TestOpenNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.db")
	if err := os.WriteFile(path, []byte("not a database, but notes about one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := storage.Open(t.Context(), "sqlite:"+path)
	if err == nil || !strings.Contains(err.Error(), "not a database") || strings.Contains(err.Error(), "directory") {
		t.Fatalf("err = %v, want one saying the file is not a database, without the directory hint", err)
	}
}
