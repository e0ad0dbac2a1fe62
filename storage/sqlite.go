package storage

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite" // pure Go, no cgo
	sqlite3 "modernc.org/sqlite/lib"
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

// sqliteBusyWait is how long opening a connection retries SQLITE_BUSY: the
// busy_timeout above.
const sqliteBusyWait = 10 * time.Second

// busyRetryConnector opens connections, retrying those that fail with
// SQLITE_BUSY. Switching a new file to WAL takes an exclusive lock, and when
// several processes open a new file at once SQLite can return SQLITE_BUSY
// from the journal_mode pragma without calling the busy handler, because
// waiting could deadlock (TestSQLiteOpenRace; 8 processes opening fresh
// files on 2 loaded cores failed 6 opens in 800). Retrying is safe: the
// failed connection is closed and has changed nothing.
type busyRetryConnector struct{ driver.Connector }

func (c busyRetryConnector) Connect(ctx context.Context) (driver.Conn, error) {
	deadline := time.Now().Add(sqliteBusyWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		conn, err := c.Connector.Connect(ctx)
		var serr *sqlite.Error
		if !errors.As(err, &serr) || serr.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().Add(wait).After(deadline) {
			return conn, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

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
	if err := checkSQLitePath(path); err != nil {
		return nil, err
	}
	connector, err := sqlite.NewConnector(path + "?" + sqlitePragmas)
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite %s: %w", path, err)
	}
	db := sql.OpenDB(busyRetryConnector{connector})
	// One writer at a time is all SQLite allows; the connections beyond it
	// serve concurrent readers. Keeping them idle avoids reopening the file
	// (and re-running the pragmas) under load.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, sqliteOpenError(path, err)
	}
	s, err := newSQLStore(ctx, db, sqliteDialect)
	if err != nil {
		var serr *sqlite.Error
		if errors.As(err, &serr) && sqliteCodeMessage(path, serr.Code()) != "" {
			return nil, sqliteOpenError(path, err)
		}
		return nil, fmt.Errorf("%w (sqlite %s)", err, path)
	}
	return s, nil
}
