package storagetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/boaopt/boa/storage"
)

// OpenBench opens an empty storage of backend (memory, sqlite or
// postgres) for a benchmark, and a second handle on the same database to
// fill it through. PostgreSQL's filler does not wait for the WAL flush
// of each of its commits (the set-up of 20,000 trials would take
// minutes); the timed store keeps the server's durable default, as boa
// does. It skips the postgres backend without PostgresEnv.
func OpenBench(b testing.TB, backend string) (store, filler storage.Storage) {
	b.Helper()
	open := func(u string) storage.Storage {
		s, err := storage.Open(context.Background(), u)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { s.Close() })
		return s
	}
	switch backend {
	case "memory":
		s := storage.NewMemory()
		return s, s
	case "sqlite":
		s := open("sqlite:" + filepath.Join(b.TempDir(), "boa.db"))
		return s, s
	case "postgres":
		u := PostgresURL(b, true)
		return open(u), open(u + "&synchronous_commit=off")
	}
	b.Fatalf("unknown backend %q", backend)
	return nil, nil
}
