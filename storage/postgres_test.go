package storage_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, to create test schemas

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

const pgEnv = "BOA_TEST_POSTGRES_URL"

var (
	pgSchemas atomic.Int64
	pgAdmin   = sync.OnceValues(func() (*sql.DB, error) { return sql.Open("pgx", os.Getenv(pgEnv)) })
)

// pgSchemaURL creates a fresh schema in the test database and returns the
// URL with search_path pointing at it, so runs (and sub-tests) never see
// each other's tables; the schema is dropped when the test ends.
//
// With durable false, commits do not wait for the WAL flush
// (synchronous_commit=off): tests check locking and isolation, which do not
// depend on it, and run several times faster. Benchmarks of writes keep the
// server's durable default.
func pgSchemaURL(t testing.TB, durable bool) string {
	base := os.Getenv(pgEnv)
	if base == "" {
		t.Skip(pgEnv + " not set: PostgreSQL conformance skipped")
	}
	schema := fmt.Sprintf("boa_test_%d_%d_%d", time.Now().Unix(), os.Getpid(), pgSchemas.Add(1))
	admin, err := pgAdmin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.ExecContext(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		t.Fatalf("create schema (is %s right?): %v", pgEnv, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	if !durable {
		q.Set("synchronous_commit", "off")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgres(t testing.TB, durable bool) storage.Storage {
	s, err := storage.Open(t.Context(), pgSchemaURL(t, durable))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPostgres(t *testing.T) {
	if os.Getenv(pgEnv) == "" {
		t.Skip(pgEnv + " not set: PostgreSQL conformance skipped")
	}
	storagetest.Run(t, func(t *testing.T) storage.Storage { return openPostgres(t, false) })
}
