package storage_test

import (
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

func TestMemory(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		s, err := storage.Open(t.Context(), "memory:")
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}
