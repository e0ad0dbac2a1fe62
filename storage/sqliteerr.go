package storage

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLite names what failed by a code ("unable to open database file (14)",
// "attempt to write a readonly database (1544)"), not which file or what to
// do about it. OpenSQLite checks beforehand what it can without writing
// (the directory exists; an existing file is writable) and, when SQLite
// fails anyway, says in these words what its code means for path.

// sqliteReadOnlyHint is where a user who only wants to look goes instead.
const sqliteReadOnlyHint = "boa studies, trials, best, export and dashboard open it read-only"

// checkSQLitePath says why OpenSQLite cannot open path for writing, before
// SQLite tries, or returns nil. An existing read-only file would otherwise
// open (SQLite falls back to reading it) and fail only at the study's
// first write, "attempt to write a readonly database (8)".
func checkSQLitePath(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("storage: sqlite %s: directory %s does not exist; create it (mkdir -p %s) or give another path", path, dir, dir)
	case errors.Is(err, syscall.ENOTDIR) || err == nil && !fi.IsDir():
		return fmt.Errorf("storage: sqlite %s: %s is not a directory", path, dir)
	case err != nil:
		return fmt.Errorf("storage: sqlite %s: %w", path, err)
	}
	fi, err = os.Stat(path)
	if err != nil || fi.IsDir() {
		return nil // SQLite says it: the file is created, or is a directory
	}
	if err := writable(path); err != nil {
		return readOnlyFile(path, err)
	}
	return nil
}

func readOnlyFile(path string, why error) error {
	return errors.New("storage: " + readOnlyMessage(path, why))
}

// readOnlyMessage says that path cannot be written, why (access(2)'s
// reason; nil when only SQLite knows) and what to do.
func readOnlyMessage(path string, why error) string {
	cause := "SQLite may not write it"
	switch {
	case errors.Is(why, syscall.EROFS):
		cause = "it is on a read-only file system"
	case why != nil:
		cause = "this user may not write it"
	}
	return fmt.Sprintf("sqlite %s is read-only (%s): boa run and boa serve write their trials there; "+
		"make it writable (chmod u+w %s) or copy it, or, to look only, %s", path, cause, path, sqliteReadOnlyHint)
}

// sqliteOpenError rewords an error of opening or migrating path by its
// SQLite code; others are returned as they are. err is kept (%w) for
// errors.As and for the code.
func sqliteOpenError(path string, err error) error {
	var serr *sqlite.Error
	if !errors.As(err, &serr) {
		return fmt.Errorf("storage: open sqlite %s: %w", path, err)
	}
	if msg := sqliteCodeMessage(path, serr.Code()); msg != "" {
		return fmt.Errorf("storage: %s (%w)", msg, err)
	}
	return fmt.Errorf("storage: open sqlite %s: %w", path, err)
}

// sqliteCodeMessage is what SQLite's result code means for opening path,
// or "" when it has nothing to add.
func sqliteCodeMessage(path string, code int) string {
	dir := filepath.Dir(path)
	switch {
	case code == sqlite3.SQLITE_READONLY_DIRECTORY:
		return fmt.Sprintf("sqlite %s: its directory %s is read-only, and SQLite keeps two files beside the database while it is open "+
			"(%s-wal and %s-shm); make the directory writable or move the database to one that is, or, to look only, %s",
			path, dir, filepath.Base(path), filepath.Base(path), sqliteReadOnlyHint)
	case code&0xff == sqlite3.SQLITE_READONLY:
		return readOnlyMessage(path, writable(path))
	case code&0xff == sqlite3.SQLITE_CANTOPEN:
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			if writable(dir) != nil {
				return fmt.Sprintf("sqlite %s cannot be created: this user may not write in directory %s; "+
					"give a path in a directory you can write to", path, dir)
			}
			return fmt.Sprintf("sqlite %s cannot be created (does directory %s exist and is it writable?)", path, dir)
		}
		return fmt.Sprintf("sqlite %s cannot be opened (is it readable, and is directory %s writable?)", path, dir)
	case code&0xff == sqlite3.SQLITE_BUSY, code&0xff == sqlite3.SQLITE_LOCKED:
		return fmt.Sprintf("sqlite %s is locked: another process held it for over %v; try again once it is done, "+
			"and keep the file on a local disk (SQLite's locks are unreliable on NFS)", path, sqliteBusyWait)
	}
	return ""
}
