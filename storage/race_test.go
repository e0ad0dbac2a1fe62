//go:build race

package storage

// raceEnabled: the race detector slows the pure-Go SQLite engine about
// twentyfold, so timing assertions are skipped under it.
const raceEnabled = true
