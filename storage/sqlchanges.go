package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// bumpSeq takes the study's next change number (TrialsChangedSince) for
// the trials the caller's write transaction changes. The counter row is
// updated inside that transaction, which holds it until commit
// (PostgreSQL: its row lock; SQLite: the one write lock), so change
// numbers commit in the order they are taken: a reader that has seen
// number n never later sees a change numbered n or below appear. Every
// writer takes it before locking any trial row, so that no two writers
// wait on each other's rows in opposite orders.
func bumpSeq(ctx context.Context, tx *sql.Tx, studyID int64) (int64, error) {
	var seq int64
	err := tx.QueryRowContext(ctx, `UPDATE studies SET next_seq = next_seq + 1 WHERE id = $1 RETURNING next_seq`,
		studyID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("storage: study %d: %w", studyID, ErrNotFound)
	}
	return seq, err
}

// bumpSeqOf is bumpSeq for the study of trial id; ok is false when there
// is no such trial.
func bumpSeqOf(ctx context.Context, tx *sql.Tx, id int64) (seq int64, ok bool, err error) {
	err = tx.QueryRowContext(ctx, `UPDATE studies SET next_seq = next_seq + 1
		WHERE id = (SELECT study_id FROM trials WHERE id = $1) RETURNING next_seq`, id).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return seq, err == nil, err
}

func (s *sqlStore) TrialsChangedSince(ctx context.Context, studyID int64, after int64) ([]Trial, int64, error) {
	var ts []Trial
	var last int64
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		// The counter first: every change numbered up to it has committed
		// (bumpSeq), so the query after it sees them all, whatever the
		// isolation level; one committed since may come back twice.
		var n int
		err = tx.QueryRowContext(ctx, `SELECT next_seq, next_number FROM studies WHERE id = $1`, studyID).Scan(&last, &n)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("study %d: %w", studyID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		if after <= 0 {
			ts, err = s.queryTrials(ctx, tx, n, false, `t.study_id = $1`, studyID)
			return err
		}
		ts, err = s.queryTrials(ctx, tx, 0, false, `t.study_id = $1 AND t.seq > $2`, studyID, after)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("storage: trials of study %d changed since %d: %w", studyID, after, err)
	}
	return ts, last, nil
}
