package storage_test

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boaopt/boa/storage"
)

// TestSQLiteOpenRace: stores that open a new SQLite file at the same moment
// all open it, as workers started together on a fresh study do. Switching
// the file to WAL can fail with SQLITE_BUSY without waiting; before
// OpenSQLite retried that, this test failed in 6 runs of 6 (each within
// 300 rounds), and TestMultiProcessSQLite failed now and then in CI.
// Connections in one process lock the file as separate processes do, and
// race far more often than processes started with exec.
func TestSQLiteOpenRace(t *testing.T) {
	const rounds, opens = 300, 8
	dir := t.TempDir()
	for r := range rounds {
		url := "sqlite:" + filepath.Join(dir, fmt.Sprint(r, ".db"))
		errs := make([]error, opens)
		var wg sync.WaitGroup
		for i := range opens {
			wg.Go(func() {
				s, err := storage.Open(t.Context(), url)
				if err == nil {
					err = s.Close()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, open %d: %v", r, i, err)
			}
		}
	}
}
