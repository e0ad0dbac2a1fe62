package storagetest

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// PostgresEnv names the variable that holds the URL of the PostgreSQL
// server the tests may use (scripts/ci-postgres.sh sets it up).
const PostgresEnv = "BOA_TEST_POSTGRES_URL"

var (
	schemas = atomic.Int64{}
	admin   = sync.OnceValues(func() (*sql.DB, error) { return sql.Open("pgx", os.Getenv(PostgresEnv)) })
)

// PostgresURL creates a fresh schema on the test server and returns its
// URL with search_path pointing at it, so that tests, sub-tests and
// processes never see each other's tables; the schema is dropped when the
// test ends. It skips the test when PostgresEnv is not set.
//
// With durable false, commits do not wait for the WAL flush
// (synchronous_commit=off): tests of locking and isolation do not depend
// on it and run several times faster. Benchmarks of writes, and tests that
// restart the server, keep the server's durable default.
func PostgresURL(t testing.TB, durable bool) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Skip(PostgresEnv + " not set: no PostgreSQL server to test against (scripts/ci-postgres.sh sets one up)")
	}
	schema := fmt.Sprintf("boa_test_%d_%d_%d", time.Now().Unix(), os.Getpid(), schemas.Add(1))
	db, err := admin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatalf("create schema (is %s right?): %v", PostgresEnv, err)
	}
	t.Cleanup(func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
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
