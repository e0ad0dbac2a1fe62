package storage_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// seedSQLite writes a study with a few trials in every state to a new
// SQLite file and closes it, which checkpoints and removes the -wal and
// -shm files.
func seedSQLite(t *testing.T, path string) {
	t.Helper()
	ctx := t.Context()
	s, err := storage.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.CreateStudy(ctx, storage.Study{Name: "ro", Direction: "minimize", Space: []byte(`{}`), Sampler: "random"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		tr, err := s.AddTrial(ctx, storage.Trial{StudyID: st.ID, Params: []byte(`{"x":1}`), State: storage.Running, RetryOf: -1})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Report(ctx, tr.ID, 1, float64(i)); err != nil {
			t.Fatal(err)
		}
		v := float64(i)
		f := storage.Finish{State: storage.Complete, Value: &v}
		if i == 3 {
			f = storage.Finish{State: storage.Failed, Reason: "boom"}
		}
		if err := s.FinishTrial(ctx, tr.ID, f); err != nil {
			t.Fatal(err)
		}
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// The acceptance of issue 35: a chmod 0444 SQLite file, without its -wal
// and -shm, opens read-only, lists its studies and trials, refuses writes
// with ErrReadOnly, and is byte for byte unchanged afterwards; nothing is
// created beside it. Also for a writable file (mode=ro without immutable).
func TestOpenReadOnlySQLite(t *testing.T) {
	for _, perm := range []os.FileMode{0o444, 0o644} {
		t.Run(perm.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "study.db")
			seedSQLite(t, path)
			for _, side := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(path + side); err == nil {
					t.Fatalf("%s left after close", side)
				}
			}
			if err := os.Chmod(path, perm); err != nil {
				t.Fatal(err)
			}
			before, beforeInfo := fileSum(t, path), stat(t, path)

			s, err := storage.OpenReadOnly(t.Context(), "sqlite:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if !storage.IsReadOnly(s) {
				t.Error("IsReadOnly = false")
			}
			studies, err := s.ListStudies(t.Context())
			if err != nil || len(studies) != 1 {
				t.Fatalf("ListStudies = %v, %v", studies, err)
			}
			trials, err := s.Trials(t.Context(), studies[0].ID)
			if err != nil || len(trials) != 4 || len(trials[0].Reports) != 1 || trials[3].State != storage.Failed {
				t.Fatalf("Trials = %+v, %v", trials, err)
			}
			// Incremental reads are reads: a read-only study view keeps up.
			if changed, last, err := s.TrialsChangedSince(t.Context(), studies[0].ID, 0); err != nil || len(changed) != 4 || last < 4 {
				t.Fatalf("TrialsChangedSince(0) = %d trials, last %d, %v", len(changed), last, err)
			}
			ctx := context.Background()
			for name, err := range map[string]error{
				"AddTrial":    second(s.AddTrial(ctx, storage.Trial{StudyID: studies[0].ID, RetryOf: -1})),
				"FinishTrial": s.FinishTrial(ctx, trials[0].ID, storage.Finish{State: storage.Failed}),
				"PutState":    s.PutState(ctx, studies[0].ID, "k", []byte("v")),
				"Reap":        second(s.Reap(ctx, studies[0].ID, trials[0].Created)),
				"CreateStudy": second(s.CreateStudy(ctx, storage.Study{Name: "new", Direction: "minimize"})),
				"DeleteStudy": s.DeleteStudy(ctx, studies[0].Name),
			} {
				if !errors.Is(err, storage.ErrReadOnly) {
					t.Errorf("%s on a read-only storage: %v, want ErrReadOnly", name, err)
				}
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if after := fileSum(t, path); after != before {
				t.Error("the database file changed")
			}
			if after := stat(t, path); !after.ModTime().Equal(beforeInfo.ModTime()) || after.Mode() != beforeInfo.Mode() {
				t.Errorf("file info changed: %v %v -> %v %v", beforeInfo.ModTime(), beforeInfo.Mode(), after.ModTime(), after.Mode())
			}
			if perm == 0o444 {
				// immutable=1: nothing may appear beside the file. (A
				// writable file may get an empty -shm/-wal pair while
				// open, which SQLite removes on close.)
				ents, _ := os.ReadDir(dir)
				if len(ents) != 1 {
					t.Errorf("files beside the database: %v", ents)
				}
			}
		})
	}
}

// A running study's file has its -wal: the read-only open must see the
// rows still in it (mode=ro, not immutable) and leave the main file alone.
func TestOpenReadOnlySeesWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "live.db")
	seedSQLite(t, path)
	w, err := storage.OpenSQLite(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, err := w.GetStudy(t.Context(), "ro")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1}); err != nil {
		t.Fatal(err)
	}
	r, err := storage.OpenReadOnly(t.Context(), "sqlite:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	trials, err := r.Trials(t.Context(), st.ID)
	if err != nil || len(trials) != 5 || trials[4].State != storage.Running {
		t.Fatalf("read-only Trials beside a writer = %d trials, %v; want 5, the last RUNNING", len(trials), err)
	}
}

// Schema versions other than the binary's are refused, not migrated; so
// are files that are not boa databases, missing files and memory:.
func TestOpenReadOnlyRefuses(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	seedSQLite(t, old)
	db, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`DELETE FROM schema_version WHERE version = (SELECT MAX(version) FROM schema_version)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	oldSum := fileSum(t, old)

	other := filepath.Join(dir, "other.db")
	db, err = sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	for _, tc := range []struct{ url, want string }{
		{"sqlite:" + old, "older than this boa's"},
		{"sqlite:" + other, "not a boa database"},
		{"sqlite:" + filepath.Join(dir, "absent.db"), "does not exist"},
		{"sqlite:" + dir, "is a directory"},
		{"memory:", "always be empty"},
		{"mysql://x", "unknown storage URL"},
	} {
		s, err := storage.OpenReadOnly(t.Context(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenReadOnly(%q) = %v, want an error containing %q", tc.url, err, tc.want)
		}
		if s != nil {
			s.Close()
		}
	}
	if fileSum(t, old) != oldSum {
		t.Error("refusing the old schema changed the file")
	}
	if _, err := os.Stat(filepath.Join(dir, "absent.db")); err == nil {
		t.Error("a read-only open created the missing file")
	}
}

func stat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

func second[T any](_ T, err error) error { return err }

// PostgreSQL: a read-only open reads what a writer stored, refuses writes,
// and its sessions are read-only in the server too.
func TestOpenReadOnlyPostgres(t *testing.T) {
	url := storagetest.PostgresURL(t, false)
	w, err := storage.Open(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, err := w.CreateStudy(t.Context(), storage.Study{Name: "pg", Direction: "minimize", Sampler: "random"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1}); err != nil {
		t.Fatal(err)
	}
	r, err := storage.OpenReadOnly(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	trials, err := r.Trials(t.Context(), st.ID)
	if err != nil || len(trials) != 1 {
		t.Fatalf("Trials = %v, %v", trials, err)
	}
	if changed, _, err := r.TrialsChangedSince(t.Context(), st.ID, 0); err != nil || len(changed) != 1 {
		t.Fatalf("TrialsChangedSince(0) = %v, %v", changed, err)
	}
	if _, err := r.AddTrial(t.Context(), storage.Trial{StudyID: st.ID, RetryOf: -1}); !errors.Is(err, storage.ErrReadOnly) {
		t.Errorf("AddTrial: %v, want ErrReadOnly", err)
	}
}
