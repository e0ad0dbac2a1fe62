package server

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/boaopt/boa/storage"
)

// tcpProxy forwards loopback connections to a PostgreSQL server, so that a
// test can take the database away from a storage (down) and give it back
// (up) on the same address, as a restart does.
type tcpProxy struct {
	t      *testing.T
	addr   string // where clients connect
	target string
	mu     sync.Mutex
	ln     net.Listener
	conns  []net.Conn
}

func newTCPProxy(t *testing.T, target string) *tcpProxy {
	p := &tcpProxy{t: t, target: target}
	p.up("127.0.0.1:0")
	t.Cleanup(p.down)
	return p
}

func (p *tcpProxy) up(addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			d, err := net.Dial("tcp", p.target)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, d)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(d, c); d.Close() }()
			go func() { _, _ = io.Copy(c, d); c.Close() }()
		}
	}()
}

// down refuses new connections and drops the open ones.
func (p *tcpProxy) down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A database that is down or restarting answers 503, which clients retry,
// not 500: boa worker gave up on a 500, so every worker of a study died
// in a PostgreSQL restart and the results they were telling were lost.
func TestStorageOutageIs503(t *testing.T) {
	base := os.Getenv("BOA_TEST_POSTGRES_URL")
	if base == "" {
		t.Skip("BOA_TEST_POSTGRES_URL not set")
	}
	u, err := url.Parse(benchSchema(t, base))
	if err != nil {
		t.Fatal(err)
	}
	p := newTCPProxy(t, u.Host)
	u.Host = p.addr
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
	addr := p.addr
	p.down()
	check("database down")
	p.up(addr)

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
