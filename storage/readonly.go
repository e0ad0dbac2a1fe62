package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// ErrReadOnly is returned by every write to a storage opened with
// OpenReadOnly.
var ErrReadOnly = errors.New("storage opened read-only")

// OpenReadOnly opens a storage URL for reading only, as the inspection
// commands and the dashboard do: it never migrates the schema, creates a
// file or writes a byte, so a database on a read-only medium, owned by
// another user or chmod 0444, is left exactly as it was. A database whose
// schema is older than this boa's is refused with a message rather than
// migrated (a writing command, boa run or boa serve, migrates it). Every
// write method of the result returns ErrReadOnly.
//
//	sqlite:PATH   opened with SQLite's mode=ro (and immutable=1 when the
//	              file has no write permission bits and no -wal file, so
//	              that not even a -shm file is created beside it)
//	postgres://…  sessions with default_transaction_read_only=on
//
// memory: is refused: a fresh in-process store holds nothing to read.
func OpenReadOnly(ctx context.Context, url string) (Storage, error) {
	var (
		s   Storage
		err error
	)
	switch {
	case url == "memory:" || url == "memory":
		return nil, fmt.Errorf("storage: %q opened read-only would always be empty: a memory: storage lives only inside the process that runs the study", url)
	case strings.HasPrefix(url, "sqlite:"):
		path := SQLitePath(url)
		if path == "" {
			return nil, fmt.Errorf("storage: %q names no file: want sqlite:PATH, e.g. sqlite:boa.db", url)
		}
		s, err = openSQLiteReadOnly(ctx, path)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		s, err = openPostgresReadOnly(ctx, url)
	default:
		return nil, fmt.Errorf("storage: unknown storage URL %q: want sqlite:PATH (e.g. sqlite:boa.db) or postgres://USER:PASSWORD@HOST:PORT/DB", url)
	}
	if err != nil {
		return nil, err
	}
	return readOnly{s}, nil
}

// openSQLiteReadOnly opens an existing SQLite file without writing it. Not
// even a busy_timeout-free open may create the file, so its absence is an
// error here rather than in SQLite.
func openSQLiteReadOnly(ctx context.Context, path string) (Storage, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("storage: sqlite path %q: '?' and '#' are not supported in file names", path)
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("storage: sqlite file %s does not exist (a read-only open never creates one)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("storage: sqlite %s is a directory, not a database file", path)
	}
	// mode=ro alone still lets SQLite create the -wal and -shm files of a
	// WAL database in a writable directory. immutable=1 creates nothing and
	// takes no locks, but then SQLite assumes nobody writes the file, and a
	// running study would be misread. It is safe, and taken, only where
	// nobody writes: no write permission bits (root ignores them, so they
	// are read, not tried) and no -wal file (a WAL database being written
	// always has one; it is deleted by the last connection to close).
	params := "mode=ro"
	_, walErr := os.Stat(path + "-wal")
	if fi.Mode().Perm()&0o222 == 0 && errors.Is(walErr, fs.ErrNotExist) {
		params += "&immutable=1"
	}
	// A file: URI, so that SQLite reads mode and immutable; its path is
	// percent-encoded ('%' would otherwise start an escape).
	u := &url.URL{Scheme: "file", OmitHost: true, Path: path}
	dsn := u.String() + "?" + params + "&_pragma=busy_timeout(10000)&_pragma=query_only(1)"
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("storage: open sqlite %s: %w", path, err)
	}
	db := sql.OpenDB(busyRetryConnector{connector})
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	d := *sqliteDialect
	if err := checkSchema(ctx, db, &d); err != nil {
		db.Close()
		return nil, fmt.Errorf("%w (sqlite %s, opened read-only)", err, path)
	}
	return &sqlStore{db: db, d: &d, sem: make(chan struct{}, 1), now: time.Now}, nil
}

// openPostgresReadOnly connects with every transaction read-only, so that
// even a bug here cannot change the database, and does not migrate.
func openPostgresReadOnly(ctx context.Context, url string) (Storage, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("storage: postgres URL: %w", err)
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = connectTimeout
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	where := fmt.Sprintf("%s:%d/%s", cfg.Host, cfg.Port, cfg.Database)
	db := stdlib.OpenDB(*cfg)
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	if err := checkSchema(ctx, db, postgresDialect); err != nil {
		db.Close()
		return nil, fmt.Errorf("%w (postgres %s, opened read-only)", err, where)
	}
	return &sqlStore{db: db, d: postgresDialect, sem: make(chan struct{}, 1), now: time.Now}, nil
}

// checkSchema is migrate's check without the migration: the database must
// be at SchemaVersion exactly.
func checkSchema(ctx context.Context, db *sql.DB, d *dialect) error {
	var have sql.NullInt64
	err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&have)
	if err != nil {
		var serr *sqlite.Error
		if errors.As(err, &serr) && strings.Contains(serr.Error(), "no such table") ||
			strings.Contains(err.Error(), "does not exist") && strings.Contains(err.Error(), "schema_version") {
			return errors.New("storage: not a boa database (it has no schema_version table): was it written by boa run or boa serve?")
		}
		return fmt.Errorf("storage: read schema version: %w", err)
	}
	switch v := int(have.Int64); {
	case v > SchemaVersion:
		return fmt.Errorf("storage: database schema version %d is newer than this boa understands (%d): upgrade boa", v, SchemaVersion)
	case v < SchemaVersion:
		return fmt.Errorf("storage: database schema version %d is older than this boa's (%d), and a read-only open does not migrate it: "+
			"run a writing command once (boa run --resume or boa serve on a writable copy), or read it with the boa that wrote it", v, SchemaVersion)
	}
	return nil
}

// readOnly refuses every write with ErrReadOnly before it reaches the
// database, where it would fail with a less helpful message (SQLite's
// "attempt to write a readonly database") or, on a back-end without a
// read-only mode, succeed.
type readOnly struct{ Storage }

func refuse(what string) error {
	return fmt.Errorf("storage: %s: %w (the inspection commands and boa dashboard never write)", what, ErrReadOnly)
}

func (readOnly) CreateStudy(context.Context, Study) (Study, error) {
	return Study{}, refuse("create study")
}
func (readOnly) DeleteStudy(context.Context, string) error      { return refuse("delete study") }
func (readOnly) SetBudget(context.Context, int64, int) error    { return refuse("set budget") }
func (readOnly) AddTrial(context.Context, Trial) (Trial, error) { return Trial{}, refuse("add trial") }
func (readOnly) ClaimTrial(context.Context, int64, string) (Trial, bool, error) {
	return Trial{}, false, refuse("claim trial")
}
func (readOnly) FinishTrial(context.Context, int64, Finish) error { return refuse("finish trial") }
func (readOnly) Heartbeat(context.Context, int64) error           { return refuse("heartbeat") }
func (readOnly) Report(context.Context, int64, int64, float64) error {
	return refuse("report")
}
func (readOnly) SetLogPath(context.Context, int64, string) error { return refuse("set log path") }
func (readOnly) Reap(context.Context, int64, time.Time, ...string) ([]Trial, error) {
	return nil, refuse("reap stale trials")
}
func (readOnly) Lock(context.Context, int64, string, time.Duration) (*Lease, error) {
	return nil, refuse("take the suggestion lease")
}
func (readOnly) PutState(context.Context, int64, string, []byte) error {
	return refuse("put sampler state")
}

// IsReadOnly reports whether s was opened with OpenReadOnly.
func IsReadOnly(s Storage) bool {
	_, ok := s.(readOnly)
	return ok
}
