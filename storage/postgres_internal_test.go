package storage

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

// TestPostgresConnectTimeout: a server that accepts the connection and
// never answers is given up after connectTimeout, with an error naming
// it; without a timeout boa waited for ever.
func TestPostgresConnectTimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accept, then say nothing
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	old := connectTimeout
	connectTimeout = 300 * time.Millisecond
	defer func() { connectTimeout = old }()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	_, err = OpenPostgres(ctx, "postgres://boa:boa@"+ln.Addr().String()+"/boa?sslmode=disable")
	if err == nil || !strings.Contains(err.Error(), "connect to postgres") || time.Since(start) > 5*time.Second {
		t.Fatalf("after %v: %v; want a connection error within the timeout", time.Since(start).Round(time.Millisecond), err)
	}
}
