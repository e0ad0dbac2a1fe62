package storage

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// Issue 3: loading a 20,000-trial study must take well under a second on
// SQLite. The rows are written in one transaction (adding them one by one
// is BenchmarkTrials20k's job); the load goes through Trials.
func TestSQLiteTrials20k(t *testing.T) {
	const n = 20000
	if raceEnabled {
		t.Skip("a timing test: skipped under the race detector, which slows SQLite ~20x")
	}
	st, err := OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "big.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := st.(*sqlStore)
	study, err := s.CreateStudy(t.Context(), Study{Name: "big", Direction: "minimize"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.write(t.Context(), func(tx *sql.Tx) error {
		now := time.Now().UnixMicro()
		ins, err := tx.PrepareContext(t.Context(), `INSERT INTO trials (study_id, number, params, x, state, value, metrics,
			worker, created_us, started_us, finished_us, heartbeat_us)
			VALUES ($1, $2, $3, $4, 'COMPLETE', $5, $6, 'w', $7, $7, $7, $7) RETURNING id`)
		if err != nil {
			return err
		}
		defer ins.Close()
		rep, err := tx.PrepareContext(t.Context(), `INSERT INTO reports (trial_id, step, value) VALUES ($1, $2, $3)`)
		if err != nil {
			return err
		}
		defer rep.Close()
		for i := range n {
			metrics, _ := mapArg(map[string]float64{"acc": float64(i) / n, "flash_kb": 12.5})
			var id int64
			if err := ins.QueryRowContext(t.Context(), study.ID, i, fmt.Sprintf(`{"lr":%g,"layers":%d,"kernel":"rbf"}`, float64(i)/n, i%7),
				xArg([]float64{float64(i) / n, 0.25, 0.5}), float64(i), metrics, now).Scan(&id); err != nil {
				return err
			}
			if i%10 == 0 {
				for step := range 5 {
					if _, err := rep.ExecContext(t.Context(), id, step, float64(step)); err != nil {
						return err
					}
				}
			}
		}
		_, err = tx.ExecContext(t.Context(), `UPDATE studies SET next_number = $2 WHERE id = $1`, study.ID, n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	best := time.Hour
	for range 3 {
		start := time.Now()
		ts, err := s.Trials(context.Background(), study.ID)
		best = min(best, time.Since(start))
		if err != nil || len(ts) != n || ts[n-1].Number != n-1 || len(ts[n-10].Reports) != 5 || ts[7].Metrics["flash_kb"] != 12.5 {
			t.Fatalf("Trials = %d trials, %v", len(ts), err)
		}
	}
	t.Logf("Trials of a %d-trial study on SQLite: %v (best of 3)", n, best)
	if best > time.Second {
		t.Errorf("loading %d trials took %v, want well under 1s", n, best)
	}
}

// TestSchemaVersion: a new database is at SchemaVersion, the number of
// migrations (the constant is kept by hand and must follow them).
func TestSchemaVersion(t *testing.T) {
	st, err := OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "v.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var v int
	if err := st.(*sqlStore).db.QueryRowContext(t.Context(), `SELECT MAX(version) FROM schema_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	if v != SchemaVersion || v != len(migrations) {
		t.Errorf("a new database is at version %d; SchemaVersion = %d, %d migrations", v, SchemaVersion, len(migrations))
	}
}

// A database locked by another process past the busy timeout cannot be
// made in a test without waiting that long (twice: the busy handler, then
// busyRetryConnector); the wording of its codes is checked here.
func TestSQLiteCodeMessage(t *testing.T) {
	for _, code := range []int{sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_BUSY_SNAPSHOT, sqlite3.SQLITE_LOCKED_SHAREDCACHE} {
		if msg := sqliteCodeMessage("/srv/boa.db", code); !strings.Contains(msg, "/srv/boa.db is locked: another process held it for over 10s") {
			t.Errorf("code %d: %q", code, msg)
		}
	}
	if msg := sqliteCodeMessage("/srv/boa.db", sqlite3.SQLITE_NOTADB); msg != "" {
		t.Errorf("not a database: %q, want SQLite's own words", msg)
	}
}
