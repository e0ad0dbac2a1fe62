package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

type serveFlags struct {
	storage string
	addr    string
	token   string
	lease   time.Duration
	verbose bool
}

func serveCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve --storage URL [--addr HOST:PORT] [--token T] [--lease 30s]",
		Short: "Serve the HTTP JSON API that remote workers ask and tell",
		Long: "Serve the HTTP JSON API (docs/http-api.md) over a storage. The server keeps no\n" +
			"state of its own: several `boa serve` processes may share one PostgreSQL\n" +
			"database behind a load balancer.\n\n" +
			"Off the loopback interface a bearer token is required (--token or BOA_TOKEN);\n" +
			"clients send it as \"Authorization: Bearer $BOA_TOKEN\". A token has at least 16\n" +
			"characters and no whitespace; `openssl rand -hex 16 > ~/.boa-token` makes one.",
		Example: "  boa serve --storage sqlite:boa.db\n" +
			"  BOA_TOKEN=$(cat ~/.boa-token) BOA_STORAGE=postgres://boa:pw@db:5432/boa boa serve --addr 0.0.0.0:8080",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("token") {
				f.token = os.Getenv("BOA_TOKEN")
			}
			return serve(cmd.Context(), f, cmd.ErrOrStderr())
		},
	}
	fl := cmd.Flags()
	storageFlag(cmd, &f.storage)
	fl.Lookup("storage").Usage = "storage URL: sqlite:PATH, postgres://... or memory: (default $BOA_STORAGE, else " + config.DefaultStorage + ")"
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on (HOST:PORT; port 0 picks a free one)")
	fl.StringVar(&f.token, "token", "", "bearer token required of clients: at least 16 characters, no whitespace (default $BOA_TOKEN)")
	fl.DurationVar(&f.lease, "lease", study.DefaultLease, "a running trial without a heartbeat for this long is FAILED (stale) and re-queued")
	fl.BoolVar(&f.verbose, "verbose", false, "log every failed request, not only server errors")
	return cmd
}

func serve(ctx context.Context, f serveFlags, stderr io.Writer) error {
	if f.lease <= 0 {
		return fmt.Errorf("--lease must be positive, got %v", f.lease)
	}
	if _, _, err := net.SplitHostPort(f.addr); err != nil {
		return fmt.Errorf("--addr %q: want HOST:PORT, e.g. 127.0.0.1:8080: %w", f.addr, err)
	}
	if err := server.CheckToken(f.token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	// Judged on the address bound, not the name given: a hosts file or
	// DNS may map "localhost" elsewhere.
	if a, ok := ln.Addr().(*net.TCPAddr); f.token == "" && (!ok || !a.IP.IsLoopback()) {
		return fmt.Errorf("refusing to serve on %s without a token: anyone who can reach it could read and change "+
			"your studies; set BOA_TOKEN (or --token), or listen on 127.0.0.1", f.addr)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	store, err := storage.Open(ctx, f.storage)
	if err != nil {
		return err
	}
	defer store.Close()

	level := slog.LevelWarn
	if f.verbose {
		level = slog.LevelInfo
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	auth := "no token (loopback only)"
	if f.token != "" {
		auth = "bearer token required"
	}
	fmt.Fprintf(stderr, "boa serve: listening on http://%s (storage %s, lease %v, %s)\n", ln.Addr(), storage.Redact(f.storage), f.lease, auth)
	opts := server.Options{Token: f.token, Lease: f.lease, Logger: logger, ShutdownGrace: shutdownGrace}
	return server.Serve(ctx, ln, store, opts, func() {
		stop() // a second signal ends the process at once
		fmt.Fprintln(stderr, "boa serve: shutting down (finishing requests in flight)")
	})
}

// shutdownGrace is how long a shutting-down boa serve lets requests in
// flight finish before it cancels them (a variable for tests).
var shutdownGrace = server.DefaultShutdownGrace
