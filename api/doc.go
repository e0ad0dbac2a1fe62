// Package api holds the JSON forms of boa's HTTP API (DESIGN.md §2.4,
// docs/http-api.md) that more than one package writes or reads: the server
// writes them, the Go client reads them, and `boa export --format json`
// and `boa best --json` print a trial in the same form. One definition
// keeps the three from drifting apart.
//
// It imports nothing of boa, so that the client stays free of the server
// and of the storage drivers.
package api
