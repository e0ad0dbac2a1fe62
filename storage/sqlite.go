package storage

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	_ "modernc.org/sqlite" // registers the "sqlite" driver (pure Go, no cgo)
)

// sqlitePragmas go in the DSN, not in Exec after Open: database/sql pools
// connections, and a PRAGMA executed once configures only the connection it
// happened to run on (peers-and-benchmarks.md §5.2 measured 1052 SQLITE_BUSY
// failures in 4000 operations that way). WAL lets readers run beside the one
// writer; synchronous=NORMAL is durable across application crashes in WAL
// mode and skips an fsync per commit; _txlock=immediate makes every write
// transaction take the write lock at BEGIN, so concurrent writers queue in
// busy_timeout instead of failing with SQLITE_BUSY when a read lock cannot be
// upgraded (the busy handler is not called in that case).
const sqlitePragmas = "_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
	"&_pragma=synchronous(NORMAL)&_txlock=immediate"

var sqliteDialect = &dialect{
	name: "sqlite",
	ddl: strings.NewReplacer(
		"{{id}}", "INTEGER PRIMARY KEY AUTOINCREMENT", // ids are never reused
		"{{int}}", "INTEGER",
		"{{float}}", "REAL",
		"{{blob}}", "BLOB",
	),
	// ReadOnly makes modernc.org/sqlite issue a deferred BEGIN, so reads do
	// not take the write lock despite _txlock=immediate.
	readTx:       sql.TxOptions{ReadOnly: true},
	serialWrites: true,
}

// OpenSQLite opens (creating if needed) the SQLite database file at path and
// migrates its schema. Many processes may open the same file at once; it
// must be on a local file system (SQLite's locking is unreliable on NFS).
func OpenSQLite(ctx context.Context, path string) (Storage, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("storage: sqlite path %q: '?' and '#' are not supported in file names", path)
	}
	db, err := sql.Open("sqlite", path+"?"+sqlitePragmas)
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite %s: %w", path, err)
	}
	// One writer at a time is all SQLite allows; the connections beyond it
	// serve concurrent readers. Keeping them idle avoids reopening the file
	// (and re-running the pragmas) under load.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open sqlite %s (does its directory exist and is it writable?): %w", path, err)
	}
	s, err := newSQLStore(ctx, db, sqliteDialect)
	if err != nil {
		return nil, fmt.Errorf("%w (sqlite %s)", err, path)
	}
	return s, nil
}
