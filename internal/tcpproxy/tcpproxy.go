// Package tcpproxy is a loopback TCP proxy for tests: it stands between a
// storage and its PostgreSQL server, so that a test can take the database
// away (Down) and give it back on the same address (Up), as a restart
// does, without touching the server other tests share.
package tcpproxy

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards the connections it accepts to a target address.
type Proxy struct {
	t      testing.TB
	target string
	mu     sync.Mutex
	addr   string
	ln     net.Listener
	conns  []net.Conn
}

// New starts a proxy to target on a free loopback port; it is stopped
// when the test ends.
func New(t testing.TB, target string) *Proxy {
	p := &Proxy{t: t, target: target}
	p.Up("127.0.0.1:0")
	t.Cleanup(p.Down)
	return p
}

// Addr is the address clients connect to.
func (p *Proxy) Addr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addr
}

// Up listens on addr (the old Addr, to come back where clients expect).
func (p *Proxy) Up(addr string) {
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

// Down refuses new connections and drops the open ones.
func (p *Proxy) Down() {
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
