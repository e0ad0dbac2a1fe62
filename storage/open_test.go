package storage_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
)

func TestOpenURLs(t *testing.T) {
	for _, tc := range []struct {
		url, wantErr string
	}{
		{"memory:", ""},
		{"sqlite:" + filepath.Join(t.TempDir(), "a.db"), ""},
		{"sqlite://" + filepath.Join(t.TempDir(), "b.db"), ""},
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
	if err := exec(`INSERT INTO schema_version (version, applied_us) VALUES (99, 0)`); err != nil {
		t.Fatal(err)
	}
	_, err = storage.Open(t.Context(), url)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Open of a newer schema = %v, want a 'newer than this boa' error", err)
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
	url := pgSchemaURL(t, false)
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
