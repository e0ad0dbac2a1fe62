package storage_test

import (
	"os"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

const pgEnv = storagetest.PostgresEnv

func openPostgres(t testing.TB, durable bool) storage.Storage {
	s, err := storage.Open(t.Context(), storagetest.PostgresURL(t, durable))
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
