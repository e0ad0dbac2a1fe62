package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

func openSQLite(t testing.TB) storage.Storage {
	s, err := storage.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "boa.db"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSQLite(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Storage { return openSQLite(t) })
}
