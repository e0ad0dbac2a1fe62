package server

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/boaopt/boa/internal/tcpproxy"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// A database that is down or restarting answers 503, which clients retry,
// not 500: boa worker gave up on a 500, so every worker of a study died
// in a PostgreSQL restart and the results they were telling were lost.
func TestStorageOutageIs503(t *testing.T) {
	u, err := url.Parse(storagetest.PostgresURL(t, true))
	if err != nil {
		t.Fatal(err)
	}
	p := tcpproxy.New(t, u.Host)
	u.Host = p.Addr()
	store, err := storage.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	h := New(store, Options{Logger: testLogger(t)})
	must(t, h, 201, "POST", "/api/v1/studies", studyBody("s", 10))
	id := askOne(t, h, "s")

	requests := []struct{ method, path, body string }{
		{"POST", trialPath(id, "heartbeat"), ""},
		{"POST", trialPath(id, "tell"), `{"value":0.5}`},
		{"POST", "/api/v1/studies/s/ask", `{}`},
		{"GET", "/api/v1/studies/s/trials", ""},
	}
	check := func(when string) {
		t.Helper()
		for _, r := range requests {
			a := call(h, r.method, r.path, r.body)
			if a.status != http.StatusServiceUnavailable {
				t.Errorf("%s: %s %s: status %d, want 503: %s", when, r.method, r.path, a.status, a.body)
			}
		}
	}

	// Down: connections dropped, new ones refused.
	addr := p.Addr()
	p.Down()
	check("database down")
	p.Up(addr)

	// Back on the same address: the pool reconnects.
	must(t, h, 200, "POST", trialPath(id, "tell"), `{"value":0.5}`)
}

// What PostgreSQL says while it shuts down, starts up or is full is
// "unavailable" too; a failing query is not.
func TestUnreachable(t *testing.T) {
	for code, want := range map[string]bool{
		"57P01": true, "57P03": true, "08006": true, "53300": true, // admin shutdown, starting up, connection failure, too many connections
		"42P01": false, "23505": false, "22P02": false, // no such table, unique violation, bad text
	} {
		err := fmt.Errorf("storage: get trial 1: %w", &pgconn.PgError{Code: code})
		if got := unreachable(err); got != want {
			t.Errorf("SQLSTATE %s: unreachable %v, want %v", code, got, want)
		}
	}
}

// sqliteError has the method of modernc.org/sqlite's *Error that
// unreachable reads.
type sqliteError int

func (e sqliteError) Code() int     { return int(e) }
func (e sqliteError) Error() string { return fmt.Sprintf("sqlite error %d", int(e)) }

// TestUnreachableSQLiteBusy: SQLite still busy after its busy timeout
// (another process holding the write lock) is a 503 to retry, as a
// locked database is for boa run; a failing statement is not.
func TestUnreachableSQLiteBusy(t *testing.T) {
	for code, want := range map[int]bool{5: true, 5 | 2<<8: true, 19: false, 1: false} { // BUSY, BUSY_SNAPSHOT, CONSTRAINT, ERROR
		if got := unreachable(fmt.Errorf("storage: finish trial 1: %w", sqliteError(code))); got != want {
			t.Errorf("SQLite code %d: unreachable %v, want %v", code, got, want)
		}
	}
}

// TestCancelledRequestIsNotAnError: a request whose client went away (a
// worker killed mid-ask, a heartbeat past its own deadline) is not logged
// as a server error; during an outage dozens of them hid the real ones.
func TestCancelledRequestIsNotAnError(t *testing.T) {
	var log bytes.Buffer
	h := New(storeFor(t), Options{Logger: slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest("GET", "/api/v1/studies", nil).WithContext(ctx)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusServiceUnavailable || log.Len() != 0 {
		t.Fatalf("status %d, log %q; want 503 and nothing logged at warning level", rec.Code, log.String())
	}
}
