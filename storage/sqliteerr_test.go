package storage_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/storage"
)

// SQLite's "unable to open database file (14)" and "attempt to write a
// readonly database (8)" become messages that name the file or directory
// at fault and what to do, each from a real file. Those made with chmod
// cannot be made as root, who writes through any permission bits.

func openErr(t *testing.T, path string) string {
	t.Helper()
	s, err := storage.Open(t.Context(), "sqlite:"+path)
	if err == nil {
		s.Close()
		t.Fatalf("opening %s succeeded", path)
	}
	return err.Error()
}

func wantIn(t *testing.T, msg string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q\ndoes not say %q", msg, w)
		}
	}
}

func skipIfRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() == 0 {
		t.Skip("running as root, who may write whatever chmod says: run the storage tests as another user to test this")
	}
}

func TestSQLiteNoSuchDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs", "today")
	msg := openErr(t, filepath.Join(dir, "boa.db"))
	wantIn(t, msg, "directory "+dir+" does not exist", "mkdir -p "+dir)
	if _, err := os.Stat(filepath.Dir(dir)); err == nil {
		t.Error("a directory was created")
	}

	file := filepath.Join(t.TempDir(), "notes")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wantIn(t, openErr(t, filepath.Join(file, "boa.db")), file+" is not a directory")
}

func TestSQLiteReadOnlyFile(t *testing.T) {
	skipIfRoot(t)
	path := filepath.Join(t.TempDir(), "boa.db")
	seedSQLite(t, path)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	before := fileSum(t, path)
	wantIn(t, openErr(t, path), path+" is read-only (this user may not write it)", "chmod u+w", "open it read-only")
	if fileSum(t, path) != before {
		t.Error("the file changed")
	}
}

func TestSQLiteReadOnlyDirectory(t *testing.T) {
	skipIfRoot(t)
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	seedSQLite(t, old) // closed: no -wal and -shm until the next open
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) }) // for TempDir's RemoveAll

	t.Run("new file", func(t *testing.T) {
		path := filepath.Join(dir, "new.db")
		wantIn(t, openErr(t, path), path+" cannot be created: this user may not write in directory "+dir)
	})
	t.Run("existing file", func(t *testing.T) {
		wantIn(t, openErr(t, old), "its directory "+dir+" is read-only", "old.db-wal and old.db-shm", "open it read-only")
	})
}
