package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// nextNumber reserves the study's next trial number. The counter row is
// updated in the caller's write transaction, which serialises concurrent
// adders of one study (PostgreSQL: row lock; SQLite: the write lock), so
// numbers have neither gaps nor duplicates: a rolled-back transaction
// returns its number. It takes the new trial's change number too (bumpSeq).
func nextNumber(ctx context.Context, tx *sql.Tx, studyID int64) (n int, seq int64, err error) {
	err = tx.QueryRowContext(ctx, `UPDATE studies SET next_number = next_number + 1, next_seq = next_seq + 1 WHERE id = $1
		RETURNING next_number - 1, next_seq`, studyID).Scan(&n, &seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, 0, fmt.Errorf("storage: study %d: %w", studyID, ErrNotFound)
	}
	return n, seq, err
}

func (s *sqlStore) AddTrial(ctx context.Context, t Trial) (Trial, error) {
	if err := validateNewTrial(t); err != nil {
		return Trial{}, err
	}
	c := cloneTrial(t)
	c.Value, c.Values, c.Metrics, c.Reports, c.Reason, c.Feasible = nil, nil, nil, nil, "", nil
	c.Finished, c.Started, c.Heartbeat = time.Time{}, time.Time{}, time.Time{}
	c.Created = clock(s.now)
	if c.State == Running {
		c.Started, c.Heartbeat = c.Created, c.Created
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		var seq int64
		if c.Number, seq, err = nextNumber(ctx, tx, c.StudyID); err != nil {
			return err
		}
		if c.RetryOf >= 0 {
			var state string
			err := tx.QueryRowContext(ctx, `SELECT state FROM trials WHERE study_id = $1 AND number = $2`,
				c.StudyID, c.RetryOf).Scan(&state)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				return retryTargetError(c.StudyID, c.RetryOf, "names no trial of the study")
			case err != nil:
				return err
			case state != Failed.String():
				return retryTargetError(c.StudyID, c.RetryOf, "names a trial that is not FAILED")
			}
		}
		// ON CONFLICT DO NOTHING: the only possible conflict is the
		// one-retry-per-trial index, which a concurrent re-queue can hit.
		err = tx.QueryRowContext(ctx, `INSERT INTO trials
			(study_id, number, params, x, state, worker, log_path, retry_of, batch, origin, created_us, started_us, heartbeat_us, seq)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
			ON CONFLICT DO NOTHING RETURNING id`,
			c.StudyID, c.Number, rawArg(c.Params), xArg(c.X), c.State.String(), c.Worker, c.LogPath, c.RetryOf, c.Batch, c.Origin,
			timeArg(c.Created), timeArg(c.Started), timeArg(c.Heartbeat), seq).Scan(&c.ID)
		if errors.Is(err, sql.ErrNoRows) {
			if c.RetryOf < 0 {
				return fmt.Errorf("trial number %d of study %d is taken (database out of step)", c.Number, c.StudyID)
			}
			return retryExistsError(c.StudyID, c.RetryOf)
		}
		return err
	})
	if err != nil {
		return Trial{}, fmt.Errorf("storage: add trial: %w", err)
	}
	return c, nil
}

// anyTrial reports whether the study has a trial matching where (over
// alias t, with the study id as $1 and args after it), in one read that
// takes no lock; ErrNotFound when there is no such study. Reap and
// ClaimTrial, which every ask calls and which usually find nothing, look
// first: finding nothing, they change nothing and need no write
// transaction, nor the study's counter row (bumpSeq), which every writer
// of the study queues on. Skipping it is safe for the readers of change
// numbers, since no trial changes. The read sees every commit before it
// (one statement outside a transaction: a fresh snapshot in SQLite's WAL
// and in PostgreSQL), so its "none" is what the write transaction would
// have found had it started then; a "some" takes the write path, which
// decides again under its locks.
func (s *sqlStore) anyTrial(ctx context.Context, studyID int64, where string, args ...any) (bool, error) {
	var some bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM trials t WHERE `+where+`) FROM studies WHERE id = $1`,
		append([]any{studyID}, args...)...).Scan(&some)
	if errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("storage: study %d: %w", studyID, ErrNotFound)
	}
	return some, err
}

func (s *sqlStore) ClaimTrial(ctx context.Context, studyID int64, worker string) (Trial, bool, error) {
	if some, err := s.anyTrial(ctx, studyID, `t.study_id = $1 AND t.state = 'WAITING'`); err != nil || !some {
		if err != nil {
			return Trial{}, false, fmt.Errorf("storage: claim trial: %w", err)
		}
		return Trial{}, false, nil
	}
	var t Trial
	found := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		now := clock(s.now).UnixMicro()
		seq, err := bumpSeq(ctx, tx, studyID)
		if err != nil {
			return err
		}
		var id int64
		err = tx.QueryRowContext(ctx, `UPDATE trials SET state = 'RUNNING', worker = $2, started_us = $3, heartbeat_us = $3, seq = $4
			WHERE state = 'WAITING' AND id = (
				SELECT id FROM trials WHERE study_id = $1 AND state = 'WAITING' ORDER BY number LIMIT 1`+s.d.skipLocked+`
			) RETURNING id`, studyID, worker, now, seq).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		ts, err := s.queryTrials(ctx, tx, 1, true, `t.id = $1`, id)
		if err != nil {
			return err
		}
		t, found = ts[0], true
		return nil
	})
	if err != nil {
		return Trial{}, false, fmt.Errorf("storage: claim trial: %w", err)
	}
	return t, found, nil
}

// whyUnchanged explains why a conditional update of trial id changed no row:
// the trial does not exist, has finished, or is not running (WAITING).
func (s *sqlStore) whyUnchanged(ctx context.Context, id int64, op string) error {
	var number int
	var state string
	err := s.db.QueryRowContext(ctx, `SELECT number, state FROM trials WHERE id = $1`, id).Scan(&number, &state)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("storage: %s: trial %d: %w", op, id, ErrNotFound)
	case err != nil:
		return fmt.Errorf("storage: %s: trial %d: %w", op, id, err)
	}
	st, err := ParseState(state)
	if err != nil {
		return err
	}
	if st.Finished() {
		return fmt.Errorf("storage: %s: trial %d (number %d) is %v: %w", op, id, number, st, ErrFinished)
	}
	return notRunningError(op, id, st)
}

func (s *sqlStore) FinishTrial(ctx context.Context, id int64, f Finish) error {
	if err := validateFinish(id, f); err != nil {
		return err
	}
	metrics, err := mapArg(f.Metrics)
	if err != nil {
		return fmt.Errorf("storage: finish trial %d: metrics: %w", id, err)
	}
	// One conditional UPDATE: of two concurrent finishes exactly one matches.
	const update = `UPDATE trials SET state = $2, value = $3, metrics = $4, reason = $5, finished_us = $6, feasible = $7, objective_values = $8, seq = $9
		WHERE id = $1 AND (state = 'RUNNING' OR (state = 'WAITING' AND $2 = 'FAILED'))`
	now := clock(s.now)
	args := []any{id, f.State.String(), floatArg(f.Value), metrics, f.Reason, now.UnixMicro(), boolArg(f.Feasible), xArg(f.Values)}
	var n int64
	// The re-run is added in the same transaction: a crash or a storage
	// failure between two would leave the trial FAILED with nothing to
	// re-run it, which no reap or resume repairs.
	err = s.write(ctx, func(tx *sql.Tx) error {
		n = 0 // the transaction may be retried
		seq, ok, err := bumpSeqOf(ctx, tx, id)
		if err != nil || !ok {
			return err
		}
		args := append(args, seq)
		if !f.Requeue {
			res, err := tx.ExecContext(ctx, update, args...)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		}
		t := Trial{ID: id}
		err = tx.QueryRowContext(ctx, update+` RETURNING study_id, number`, args...).Scan(&t.StudyID, &t.Number)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		n = 1
		return s.requeue(ctx, tx, t, now)
	})
	if err != nil {
		return fmt.Errorf("storage: finish trial %d: %w", id, err)
	}
	if n == 0 {
		return s.whyUnchanged(ctx, id, "finish trial")
	}
	return nil
}

func (s *sqlStore) Heartbeat(ctx context.Context, id int64) error {
	n, err := s.exec(ctx, `UPDATE trials SET heartbeat_us = $2 WHERE id = $1 AND state = 'RUNNING'`,
		id, clock(s.now).UnixMicro())
	if err != nil {
		return fmt.Errorf("storage: heartbeat trial %d: %w", id, err)
	}
	if n == 0 {
		return s.whyUnchanged(ctx, id, "heartbeat")
	}
	return nil
}

func (s *sqlStore) Report(ctx context.Context, id int64, step int64, value float64) error {
	if err := validateReport(id, step, value); err != nil {
		return err
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		// Share-lock the trial so a concurrent FinishTrial cannot slip in
		// between this check and the insert.
		var number int
		var state string
		err := tx.QueryRowContext(ctx, `SELECT number, state FROM trials WHERE id = $1`+s.d.shareLock, id).Scan(&number, &state)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("trial %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return err
		}
		switch st, _ := ParseState(state); {
		case st.Finished():
			return fmt.Errorf("trial %d (number %d) is %v: %w", id, number, st, ErrFinished)
		case st != Running:
			return fmt.Errorf("trial %d (number %d) is %v, %w (claim it first)", id, number, st, ErrNotRunning)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO reports (trial_id, step, value) VALUES ($1, $2, $3)
			ON CONFLICT (trial_id, step) DO UPDATE SET value = excluded.value`, id, step, value)
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: report: %w", err)
	}
	return nil
}

func (s *sqlStore) SetLogPath(ctx context.Context, id int64, path string) error {
	var n int64
	err := s.write(ctx, func(tx *sql.Tx) error {
		n = 0 // the transaction may be retried
		seq, ok, err := bumpSeqOf(ctx, tx, id)
		if err != nil || !ok {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE trials SET log_path = $2, seq = $3 WHERE id = $1`, id, path, seq)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: set log path of trial %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("storage: set log path: trial %d: %w", id, ErrNotFound)
	}
	return nil
}

func (s *sqlStore) GetTrial(ctx context.Context, id int64) (Trial, error) {
	var ts []Trial
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		ts, err = s.queryTrials(ctx, tx, 1, true, `t.id = $1`, id)
		return err
	})
	if err != nil {
		return Trial{}, fmt.Errorf("storage: get trial %d: %w", id, err)
	}
	if len(ts) == 0 {
		return Trial{}, fmt.Errorf("storage: get trial: trial %d: %w", id, ErrNotFound)
	}
	return ts[0], nil
}

func (s *sqlStore) Trials(ctx context.Context, studyID int64) ([]Trial, error) {
	return s.trials(ctx, studyID, true)
}

func (s *sqlStore) TrialsWithoutReports(ctx context.Context, studyID int64) ([]Trial, error) {
	return s.trials(ctx, studyID, false)
}

func (s *sqlStore) trials(ctx context.Context, studyID int64, reports bool) ([]Trial, error) {
	var ts []Trial
	err := s.read(ctx, func(tx *sql.Tx) (err error) {
		// The study's trial counter is its trial count: it tells an unknown
		// study apart from an empty one and sizes the slice up front (a
		// 20,000-trial study otherwise spends a fifth of its load in growslice).
		var n int
		err = tx.QueryRowContext(ctx, `SELECT next_number FROM studies WHERE id = $1`, studyID).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("study %d: %w", studyID, ErrNotFound)
		}
		if err != nil {
			return err
		}
		ts, err = s.queryTrials(ctx, tx, n, reports, `t.study_id = $1`, studyID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("storage: trials of study %d: %w", studyID, err)
	}
	return ts, nil
}

// queryTrials loads the trials matching where (over alias t) ordered by
// number, with their reports if reports, in exactly two queries (one
// without reports) whatever their count. sizeHint is the expected number
// of trials.
func (s *sqlStore) queryTrials(ctx context.Context, q queryer, sizeHint int, reports bool, where string, args ...any) ([]Trial, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+trialCols+` FROM trials t WHERE `+where+` ORDER BY t.number`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ts := make([]Trial, 0, sizeHint)
	sc := newTrialScanner()
	for rows.Next() {
		t, err := sc.scan(rows)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	if len(ts) == 0 || !reports {
		return ts, nil
	}
	if err := attachReports(ctx, q, ts, where, args...); err != nil {
		return nil, err
	}
	return ts, nil
}

// attachReports loads the reports of the trials matching where and attaches
// them to ts; reports of trials not in ts are ignored. Only each trial's
// steps need to be in order: ordering by the trial's number, which SQLite
// walks in its (study_id, number) index, spares it the temporary sort that
// ordering by trial_id took (0.35 s against 0.5-0.65 s for a 50,000-trial
// study's reports; docs/dashboard.md).
func attachReports(ctx context.Context, q queryer, ts []Trial, where string, args ...any) error {
	rows, err := q.QueryContext(ctx, `SELECT r.trial_id, r.step, r.value FROM reports r
		JOIN trials t ON t.id = r.trial_id WHERE `+where+` ORDER BY t.number, r.step`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	index := make(map[int64]int, len(ts))
	for i := range ts {
		index[ts[i].ID] = i
	}
	for rows.Next() {
		var id int64
		var r Report
		if err := rows.Scan(&id, &r.Step, &r.Value); err != nil {
			return err
		}
		if i, ok := index[id]; ok {
			ts[i].Reports = append(ts[i].Reports, r)
		}
	}
	return rows.Err()
}

func (s *sqlStore) Reap(ctx context.Context, studyID int64, before time.Time, dead ...string) ([]Trial, error) {
	where, args := reapWhere(studyID, before, dead)
	if some, err := s.anyTrial(ctx, studyID, where, args[1:]...); err != nil || !some {
		if err != nil {
			return nil, fmt.Errorf("storage: reap study %d: %w", studyID, err)
		}
		return nil, nil
	}
	var failed []Trial
	err := s.write(ctx, func(tx *sql.Tx) error {
		failed = nil // the transaction may be retried
		seq, err := bumpSeq(ctx, tx, studyID)
		if err != nil {
			return err
		}
		// Lock the stale rows first; PostgreSQL reapers running at once skip
		// each other's rows, and the state check in the UPDATE below makes a
		// late reaper a no-op either way.
		rows, err := tx.QueryContext(ctx, `SELECT `+trialCols+` FROM trials t WHERE `+where+
			` ORDER BY t.number`+s.d.skipLocked, args...)
		if err != nil {
			return err
		}
		var stale []Trial
		sc := newTrialScanner()
		for rows.Next() {
			t, err := sc.scan(rows)
			if err != nil {
				rows.Close()
				return err
			}
			stale = append(stale, t)
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		rows.Close()
		if len(stale) == 0 {
			return nil
		}
		if err := attachReports(ctx, tx, stale, where, args...); err != nil {
			return err
		}
		now := clock(s.now)
		for _, t := range stale {
			t.State, t.Reason, t.Finished = Failed, reapReason(t, dead), now
			res, err := tx.ExecContext(ctx, `UPDATE trials SET state = 'FAILED', reason = $2, finished_us = $3, seq = $4
				WHERE id = $1 AND (state = 'RUNNING' OR (state = 'WAITING' AND $2 = 'FAILED'))`, t.ID, t.Reason, now.UnixMicro(), seq)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				if err != nil {
					return err
				}
				continue // finished meanwhile: not stale after all
			}
			failed = append(failed, t)
			if t.RetryOf >= 0 {
				var reason string
				if err := tx.QueryRowContext(ctx, `SELECT reason FROM trials WHERE study_id = $1 AND number = $2`,
					t.StudyID, t.RetryOf).Scan(&reason); err != nil {
					return err
				}
				if lost(reason) {
					continue // a configuration lost twice is not re-run forever
				}
			}
			if err := s.requeue(ctx, tx, t, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: reap study %d: %w", studyID, err)
	}
	return failed, nil
}

// reapWhere selects the study's RUNNING trials that Reap fails: without
// a heartbeat since before, or run by one of the dead workers.
func reapWhere(studyID int64, before time.Time, dead []string) (string, []any) {
	where := `t.study_id = $1 AND t.state = 'RUNNING' AND (t.heartbeat_us < $2`
	args := []any{studyID, before.UnixMicro()}
	if len(dead) > 0 {
		ph := make([]string, len(dead))
		for i, w := range dead {
			args = append(args, w)
			ph[i] = fmt.Sprintf("$%d", len(args))
		}
		where += ` OR t.worker IN (` + strings.Join(ph, ", ") + `)`
	}
	return where + `)`, args
}

// requeue adds a WAITING copy of t's configuration unless t was re-queued
// already; the partial unique index on (study_id, retry_of) backs the check.
func (s *sqlStore) requeue(ctx context.Context, tx *sql.Tx, t Trial, now time.Time) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM trials WHERE study_id = $1 AND retry_of = $2 AND retry_of >= 0`,
		t.StudyID, t.Number).Scan(&one)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	number, seq, err := nextNumber(ctx, tx, t.StudyID)
	if err != nil {
		return err
	}
	// Copy params, x, batch and origin inside the database, so the bytes are the same.
	_, err = tx.ExecContext(ctx, `INSERT INTO trials (study_id, number, params, x, state, retry_of, batch, origin, created_us, seq)
		SELECT study_id, $2, params, x, 'WAITING', number, batch, origin, $3, $4 FROM trials WHERE id = $1`,
		t.ID, number, now.UnixMicro(), seq)
	return err
}
