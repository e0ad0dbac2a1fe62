package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// dialect holds what differs between the SQL back-ends. Queries are written
// once with $N placeholders, which both PostgreSQL and modernc.org/sqlite
// accept, and with INSERT ... ON CONFLICT, which both support.
type dialect struct {
	name string
	ddl  *strings.Replacer // fills the {{...}} placeholders of migrations
	// skipLocked ends the SELECT that picks rows to claim or reap, so
	// concurrent transactions take different rows instead of queueing.
	skipLocked string
	// shareLock ends a SELECT whose row must not change until commit.
	shareLock string
	// readTx begins a transaction whose queries see one snapshot.
	readTx sql.TxOptions
	// serialWrites queues this process's writers on a Go semaphore: SQLite
	// admits one writer at a time, and its busy handler sleeps between
	// retries, so in-process writers hand over faster in Go. Writers in other
	// processes still wait in SQLite's busy handler (busy_timeout).
	serialWrites bool
	// migrationLock is the first statement of the migration transaction.
	migrationLock string
	// retryable reports transient errors worth retrying the transaction
	// for (PostgreSQL serialization failures and deadlocks).
	retryable func(error) bool
}

// sqlStore implements Storage on database/sql for both SQL dialects.
type sqlStore struct {
	db  *sql.DB
	d   *dialect
	sem chan struct{} // the in-process writer slot when d.serialWrites
	now func() time.Time

	closeOnce sync.Once
	closeErr  error
}

func newSQLStore(ctx context.Context, db *sql.DB, d *dialect) (*sqlStore, error) {
	s := &sqlStore{db: db, d: d, sem: make(chan struct{}, 1), now: time.Now}
	if err := migrate(ctx, db, d, clock(s.now).UnixMicro()); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

var _ Storage = (*sqlStore)(nil)

func (s *sqlStore) acquire(ctx context.Context) (release func(), err error) {
	if !s.d.serialWrites {
		return func() {}, nil
	}
	select {
	case s.sem <- struct{}{}:
		return func() { <-s.sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// write runs fn in a write transaction (SQLite: BEGIN IMMEDIATE through the
// DSN's _txlock, so the write lock is taken up front and concurrent writers
// queue instead of failing on a lock upgrade).
func (s *sqlStore) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	release, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	defer release()
	for attempt := 0; ; attempt++ {
		err = s.tx(ctx, nil, fn)
		if err == nil || s.d.retryable == nil || !s.d.retryable(err) || attempt == 4 {
			return err
		}
	}
}

// exec runs one autocommit write statement and returns the rows it changed.
func (s *sqlStore) exec(ctx context.Context, query string, args ...any) (int64, error) {
	release, err := s.acquire(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	res, err := s.db.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// read runs fn in a read-only transaction so multi-query reads are consistent.
func (s *sqlStore) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.tx(ctx, &s.d.readTx, fn)
}

func (s *sqlStore) tx(ctx context.Context, opts *sql.TxOptions, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func (s *sqlStore) studyExists(ctx context.Context, q queryer, id int64) error {
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM studies WHERE id = $1`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("storage: study %d: %w", id, ErrNotFound)
	}
	return err
}

func (s *sqlStore) CreateStudy(ctx context.Context, st Study) (Study, error) {
	if err := validateStudy(st); err != nil {
		return Study{}, err
	}
	attrs, err := mapArg(st.Attrs)
	if err != nil {
		return Study{}, fmt.Errorf("storage: create study %q: attrs: %w", st.Name, err)
	}
	c := cloneStudy(st)
	c.Created = clock(s.now)
	err = s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO studies
			(name, direction, space, sampler, config, seed, budget, attrs, created_us)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (name) DO NOTHING RETURNING id`,
			c.Name, c.Direction, rawArg(c.Space), c.Sampler, rawArg(c.Config), int64(c.Seed), c.Budget, attrs,
			c.Created.UnixMicro()).Scan(&c.ID)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return Study{}, fmt.Errorf("storage: create study %q: %w", st.Name, ErrExists)
	}
	if err != nil {
		return Study{}, fmt.Errorf("storage: create study %q: %w", st.Name, err)
	}
	return c, nil
}

func (s *sqlStore) GetStudy(ctx context.Context, name string) (Study, error) {
	if storable(name) != nil {
		// No study has such a name, and PostgreSQL refuses to look for
		// one (invalid byte sequence): not found, as in every back-end.
		return Study{}, fmt.Errorf("storage: study %q: %w", name, ErrNotFound)
	}
	st, err := scanStudy(s.db.QueryRowContext(ctx, `SELECT `+studyCols+` FROM studies WHERE name = $1`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return Study{}, fmt.Errorf("storage: study %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return Study{}, fmt.Errorf("storage: get study %q: %w", name, err)
	}
	return st, nil
}

func (s *sqlStore) SetBudget(ctx context.Context, studyID int64, budget int) error {
	if budget < 0 {
		return invalid("storage: study %d: negative budget %d", studyID, budget)
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE studies SET budget = $2 WHERE id = $1`, studyID, budget)
		if err != nil {
			return fmt.Errorf("storage: study %d: set budget: %w", studyID, err)
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return fmt.Errorf("storage: study %d: %w", studyID, ErrNotFound)
		}
		return nil
	})
}

func (s *sqlStore) ListStudies(ctx context.Context) ([]Study, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+studyCols+` FROM studies ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("storage: list studies: %w", err)
	}
	defer rows.Close()
	out := []Study{} // empty, not nil: encodes as [] in JSON
	for rows.Next() {
		st, err := scanStudy(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: list studies: %w", err)
		}
		out = append(out, st)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: list studies: %w", err)
	}
	return out, nil
}

func (s *sqlStore) PutState(ctx context.Context, studyID int64, key string, value []byte) error {
	if value == nil {
		value = []byte{} // the column is NOT NULL; nil and empty read back alike
	}
	_, err := s.exec(ctx, `INSERT INTO sampler_state (study_id, name, value) VALUES ($1, $2, $3)
		ON CONFLICT (study_id, name) DO UPDATE SET value = excluded.value`, studyID, key, value)
	if err != nil {
		// The usual cause is the foreign key: say so plainly when it is.
		if e := s.studyExists(ctx, s.db, studyID); e != nil {
			err = e
		}
		return fmt.Errorf("storage: put state %q: %w", key, err)
	}
	return nil
}

func (s *sqlStore) GetState(ctx context.Context, studyID int64, key string) ([]byte, error) {
	var v []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM sampler_state WHERE study_id = $1 AND name = $2`, studyID, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("storage: state %q of study %d: %w", key, studyID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: get state %q of study %d: %w", key, studyID, err)
	}
	if v == nil {
		v = []byte{}
	}
	return v, nil
}

func (s *sqlStore) Lock(ctx context.Context, studyID int64, holder string, ttl time.Duration) (*Lease, error) {
	if err := validateLock(studyID, ttl); err != nil {
		return nil, err
	}
	// The token, not the holder name, owns the lease, so two callers with
	// the same name still exclude each other. It must be unique across
	// processes and hosts, hence crypto/rand (not a modelling random choice).
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("storage: lock study %d: %w", studyID, err)
	}
	token := hex.EncodeToString(b[:])
	try := func() (bool, error) {
		now := s.now()
		n, err := s.exec(ctx, `INSERT INTO study_leases (study_id, holder, token, expires_us) VALUES ($1, $2, $3, $4)
			ON CONFLICT (study_id) DO UPDATE
			SET holder = excluded.holder, token = excluded.token, expires_us = excluded.expires_us
			WHERE study_leases.expires_us <= $5`,
			studyID, holder, token, now.Add(ttl).UnixMicro(), now.UnixMicro())
		if err != nil {
			if ctx.Err() != nil {
				return false, fmt.Errorf("storage: lock study %d for %q: %w: %w", studyID, holder, ErrLocked, ctx.Err())
			}
			if e := s.studyExists(ctx, s.db, studyID); e != nil {
				err = e
			}
			return false, fmt.Errorf("storage: lock study %d: %w", studyID, err)
		}
		return n == 1, nil
	}
	if err := pollLock(ctx, studyID, holder, try); err != nil {
		return nil, err
	}
	// held runs q, with the study id and the token as $1 and $2, on the
	// lease row if it is still this holder's.
	held := func(ctx context.Context, what, q string, args ...any) error {
		n, err := s.exec(ctx, q, append([]any{studyID, token}, args...)...)
		switch {
		case err != nil:
			return fmt.Errorf("storage: %s study %d for %q: %w", what, studyID, holder, err)
		case n == 0:
			return leaseLostError(what, studyID, holder)
		}
		return nil
	}
	renew := func(ctx context.Context) error {
		return held(ctx, "renew the lease of", `UPDATE study_leases SET expires_us = $3 WHERE study_id = $1 AND token = $2`,
			s.now().Add(ttl).UnixMicro())
	}
	unlock := func() error {
		// Unlock has no context of its own; bound it so a dead database
		// cannot hang the caller.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return held(ctx, "unlock", `DELETE FROM study_leases WHERE study_id = $1 AND token = $2`)
	}
	return &Lease{renew: renew, unlock: unlock}, nil
}

func (s *sqlStore) Close() error {
	s.closeOnce.Do(func() { s.closeErr = s.db.Close() })
	return s.closeErr
}
