package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations[i] brings the schema from version i to i+1. Append only: a
// released migration never changes, so every database walks the same path.
//
// DDL placeholders are filled in by the dialect: {{id}} an auto-assigned
// primary key, {{int}} a 64-bit integer, {{float}} a float64, {{blob}} bytes.
// Times are {{int}} microseconds since the Unix epoch (UTC), NULL when unset:
// exact, comparable with an index, and the same in both SQL dialects. JSON is
// TEXT in both, so params and spaces round-trip byte for byte (JSONB would
// reorder keys).
var migrations = [][]string{
	{ // 1: studies, trials, reports, sampler state, suggestion leases
		`CREATE TABLE studies (
			id {{id}},
			name TEXT NOT NULL UNIQUE,
			direction TEXT NOT NULL CHECK (direction IN ('minimize', 'maximize')),
			space TEXT,
			sampler TEXT NOT NULL,
			config TEXT,
			seed {{int}} NOT NULL,
			budget {{int}} NOT NULL,
			attrs TEXT,
			created_us {{int}} NOT NULL,
			next_number {{int}} NOT NULL DEFAULT 0
		)`,
		`CREATE TABLE trials (
			id {{id}},
			study_id {{int}} NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
			number {{int}} NOT NULL,
			params TEXT,
			x TEXT,
			state TEXT NOT NULL CHECK (state IN ('WAITING', 'RUNNING', 'COMPLETE', 'PRUNED', 'FAILED')),
			value {{float}},
			metrics TEXT,
			reason TEXT NOT NULL DEFAULT '',
			worker TEXT NOT NULL DEFAULT '',
			log_path TEXT NOT NULL DEFAULT '',
			retry_of {{int}} NOT NULL DEFAULT -1,
			created_us {{int}} NOT NULL,
			started_us {{int}},
			finished_us {{int}},
			heartbeat_us {{int}},
			UNIQUE (study_id, number)
		)`,
		// ClaimTrial (oldest WAITING) and Reap (RUNNING) are range scans here;
		// Trials uses the UNIQUE (study_id, number) index.
		`CREATE INDEX trials_by_state ON trials (study_id, state, number)`,
		// A trial is re-queued at most once, whatever races between reapers.
		`CREATE UNIQUE INDEX trials_one_retry ON trials (study_id, retry_of) WHERE retry_of >= 0`,
		`CREATE TABLE reports (
			trial_id {{int}} NOT NULL REFERENCES trials (id) ON DELETE CASCADE,
			step {{int}} NOT NULL,
			value {{float}} NOT NULL,
			PRIMARY KEY (trial_id, step)
		)`,
		`CREATE TABLE sampler_state (
			study_id {{int}} NOT NULL REFERENCES studies (id) ON DELETE CASCADE,
			name TEXT NOT NULL,
			value {{blob}} NOT NULL,
			PRIMARY KEY (study_id, name)
		)`,
		`CREATE TABLE study_leases (
			study_id {{int}} PRIMARY KEY REFERENCES studies (id) ON DELETE CASCADE,
			holder TEXT NOT NULL,
			token TEXT NOT NULL,
			expires_us {{int}} NOT NULL
		)`,
	},
	{ // 2: the batch a trial was proposed in (Trial.Batch)
		`ALTER TABLE trials ADD COLUMN batch {{int}} NOT NULL DEFAULT 0`,
	},
	{ // 3: how a trial's point was chosen (Trial.Origin)
		`ALTER TABLE trials ADD COLUMN origin TEXT NOT NULL DEFAULT ''`,
	},
	{ // 4: whether a COMPLETE trial met the study's constraints (Trial.Feasible): 1, 0, NULL when not judged
		`ALTER TABLE trials ADD COLUMN feasible {{int}} CHECK (feasible IN (0, 1))`,
	},
	{ // 5: change numbers (TrialsChangedSince): the study's counter and each trial's last change
		`ALTER TABLE studies ADD COLUMN next_seq {{int}} NOT NULL DEFAULT 0`,
		`ALTER TABLE trials ADD COLUMN seq {{int}} NOT NULL DEFAULT 0`,
		// Existing trials: numbers 1 … next_number, in trial order; every
		// reader starts from 0 and so reads them all once.
		`UPDATE trials SET seq = number + 1`,
		`UPDATE studies SET next_seq = next_number`,
		`CREATE INDEX trials_by_seq ON trials (study_id, seq)`,
	},
	{ // 6: every objective's value of a multi-objective trial (Trial.Values), as X is kept; NULL for one objective
		`ALTER TABLE trials ADD COLUMN objective_values TEXT`,
	},
}

// SchemaVersion is the schema version this build of boa writes.
const SchemaVersion = 6

// migrate brings the database to SchemaVersion in one transaction. The
// transaction is exclusive (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory
// transaction lock), so processes opening the same database at once apply
// each migration exactly once and the others then see it applied.
func migrate(ctx context.Context, db *sql.DB, d *dialect, now int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	defer tx.Rollback()
	if d.migrationLock != "" {
		if _, err := tx.ExecContext(ctx, d.migrationLock); err != nil {
			return fmt.Errorf("storage: migrate: take lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, d.ddl.Replace(
		`CREATE TABLE IF NOT EXISTS schema_version (version {{int}} PRIMARY KEY, applied_us {{int}} NOT NULL)`)); err != nil {
		return fmt.Errorf("storage: migrate: %w", err)
	}
	var v sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_version`).Scan(&v); err != nil {
		return fmt.Errorf("storage: migrate: read schema version: %w", err)
	}
	have := int(v.Int64)
	if have > len(migrations) {
		return fmt.Errorf("storage: database schema version %d is newer than this boa understands (%d): upgrade boa", have, len(migrations))
	}
	for i := have; i < len(migrations); i++ {
		for _, stmt := range migrations[i] {
			if _, err := tx.ExecContext(ctx, d.ddl.Replace(stmt)); err != nil {
				return fmt.Errorf("storage: migrate to version %d: %w", i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_version (version, applied_us) VALUES ($1, $2)`, i+1, now); err != nil {
			return fmt.Errorf("storage: migrate to version %d: %w", i+1, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("storage: migrate: commit: %w", err)
	}
	return nil
}
