package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// DeleteStudy removes the study and everything stored for it in one
// transaction. The child tables are emptied explicitly rather than by the
// schema's ON DELETE CASCADE: SQLite enforces foreign keys only on
// connections that ask for it, and a database opened by another tool may
// not have.
func (s *sqlStore) DeleteStudy(ctx context.Context, name string) error {
	if storable(name) != nil {
		return fmt.Errorf("storage: delete study %q: %w", name, ErrNotFound)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var id int64
		// FOR UPDATE (PostgreSQL) makes a concurrent AddTrial, which
		// updates the row's next_number, wait for the delete and then find
		// no study, rather than insert a trial the delete does not see.
		err := tx.QueryRowContext(ctx, `SELECT id FROM studies WHERE name = $1`+s.d.rowLock(), name).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("storage: delete study %q: %w", name, ErrNotFound)
		}
		if err != nil {
			return err
		}
		for _, q := range []string{
			`DELETE FROM reports WHERE trial_id IN (SELECT id FROM trials WHERE study_id = $1)`,
			`DELETE FROM trials WHERE study_id = $1`,
			`DELETE FROM sampler_state WHERE study_id = $1`,
			`DELETE FROM study_leases WHERE study_id = $1`,
			`DELETE FROM studies WHERE id = $1`,
		} {
			if _, err := tx.ExecContext(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("storage: delete study %q: %w", name, err)
	}
	return err
}

// rowLock ends a SELECT of a row the transaction then deletes.
func (d *dialect) rowLock() string {
	if d.name == "postgres" {
		return " FOR UPDATE"
	}
	return "" // SQLite's write transaction already excludes every other writer
}
