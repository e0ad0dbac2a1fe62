// Package storage persists boa's studies and trials: one Storage interface,
// three implementations, one conformance suite (package storagetest).
//
// Open picks the implementation from a URL:
//
//	memory:          in-process, for tests and throw-away runs
//	sqlite:PATH      an embedded SQLite file (modernc.org/sqlite, no cgo); the default sqlite:boa.db
//	postgres://...   a PostgreSQL database (jackc/pgx), for many machines
//
// The point of the package is correctness when several processes share one
// database (DESIGN.md §1, "Scaling out"; issue 3): trial numbers are handed
// out by a counter row updated inside the inserting transaction, so they have
// neither gaps nor duplicates; a WAITING trial is claimed by one conditional
// UPDATE (PostgreSQL: FOR UPDATE SKIP LOCKED), so two workers never get the
// same trial; finishing is a conditional UPDATE, so of two concurrent
// finishes exactly one wins (the other gets ErrFinished).
//
// Crash recovery follows the complaints about zombie RUNNING trials in
// Optuna (optuna/optuna#485, #1641, #6283; peers-and-benchmarks.md §2):
// running trials send heartbeats, and Reap marks a trial whose heartbeat
// lapsed as FAILED and re-queues its configuration once, as a WAITING trial
// whose RetryOf names the crashed one.
//
// Samplers in different processes take turns through Lock, a lease with a
// time-to-live stored in the database, so each sees the trials the others
// just added as pending and does not propose them again.
//
// SQLite is configured against the "database is locked" failures users of
// Optuna report with SQLite (optuna/optuna#820, #4994; peers-and-benchmarks.md
// §5.2): WAL, busy_timeout and foreign keys in the DSN so every pooled
// connection has them, BEGIN IMMEDIATE for every write transaction, and
// connections that retry SQLITE_BUSY while opening, for workers that open
// a new file at the same moment. Keep the file on a local disk; SQLite's
// locks do not work reliably over NFS.
//
// The schema is versioned (schema_version table, migrations.go) and
// migrated on Open in one exclusive transaction. Times are stored as UTC
// microseconds; JSON (params, space, config) as text, returned byte for byte.
// Trials loads a whole study, reports included, in three queries whatever
// its size (the trial count, the trials, their reports).
package storage
