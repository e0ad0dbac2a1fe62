package storage_test

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, to create test schemas

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

const pgEnv = "BOA_TEST_POSTGRES_URL"

var pgSchemas atomic.Int64

// pgSchemaURL creates a fresh schema in the test database and returns the
// URL with search_path pointing at it, so runs (and sub-tests) never see
// each other's tables; the schema is dropped when the test ends.
func pgSchemaURL(t testing.TB) string {
	base := os.Getenv(pgEnv)
	if base == "" {
		t.Skip(pgEnv + " not set: PostgreSQL conformance skipped")
	}
	schema := fmt.Sprintf("boa_test_%d_%d_%d", time.Now().Unix(), os.Getpid(), pgSchemas.Add(1))
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.ExecContext(t.Context(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema (is %s right?): %v", pgEnv, err)
	}
	t.Cleanup(func() {
		defer admin.Close()
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
	u.RawQuery = q.Encode()
	return u.String()
}

func openPostgres(t testing.TB) storage.Storage {
	s, err := storage.Open(t.Context(), pgSchemaURL(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPostgres(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Storage { return openPostgres(t) })
}
