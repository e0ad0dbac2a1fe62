//go:build !unix

package storage

// writable cannot ask without writing here; SQLite's own error is then
// translated after the fact (sqliteOpenError).
func writable(string) error { return nil }
