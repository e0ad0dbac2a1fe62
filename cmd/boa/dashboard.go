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

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/server"
	"github.com/boaopt/boa/storage"
)

// dashboardPreload is how many trials boa dashboard reads as it starts
// (server.Options.Preload): a few 50,000-trial studies.
const dashboardPreload = 200_000

type dashboardFlags struct {
	storage string
	addr    string
	token   string
}

func dashboardCmd() *cobra.Command {
	var f dashboardFlags
	cmd := &cobra.Command{
		Use:   "dashboard --storage URL [--addr HOST:PORT] [--token T]",
		Short: "Serve the web dashboard over a storage, read-only",
		Long: "Serve the web dashboard (docs/dashboard.md) over a storage opened read-only:\n" +
			"it never migrates or writes the database, so it works on a file that is\n" +
			"chmod 0444 or another user's, and leaves it byte for byte unchanged. It\n" +
			"refreshes while a study runs elsewhere. boa serve serves the same dashboard\n" +
			"at / beside the API.\n\n" +
			"Off the loopback interface a token is required (--token or BOA_TOKEN; at least\n" +
			"16 characters, no whitespace; `openssl rand -hex 16` makes one); open\n" +
			"http://HOST:PORT/?token=T once, or type it into the page's form.",
		Example: "  boa dashboard --storage sqlite:boa.db\n" +
			"  BOA_TOKEN=$(cat ~/.boa-token) boa dashboard --storage sqlite:/data/boa.db --addr 0.0.0.0:8081",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("token") {
				f.token = os.Getenv("BOA_TOKEN")
			}
			return dashboard(cmd.Context(), f, cmd.ErrOrStderr())
		},
	}
	storageFlag(cmd, &f.storage)
	cmd.Flags().StringVar(&f.addr, "addr", "127.0.0.1:8081", "address to listen on (HOST:PORT; port 0 picks a free one)")
	cmd.Flags().StringVar(&f.token, "token", "", "token the browser must give once: at least 16 characters, no whitespace (default $BOA_TOKEN)")
	return cmd
}

func dashboard(ctx context.Context, f dashboardFlags, stderr io.Writer) error {
	if _, _, err := net.SplitHostPort(f.addr); err != nil {
		return fmt.Errorf("--addr %q: want HOST:PORT, e.g. 127.0.0.1:8081: %w", f.addr, err)
	}
	if err := server.CheckToken(f.token); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	store, err := openToRead(ctx, f.storage)
	if err != nil {
		return err
	}
	defer store.Close()
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	// As boa serve: judged on the address bound, not the name given.
	if a, ok := ln.Addr().(*net.TCPAddr); f.token == "" && (!ok || !a.IP.IsLoopback()) {
		return fmt.Errorf("refusing to serve on %s without a token: anyone who can reach it could read your studies; "+
			"set BOA_TOKEN (or --token), or listen on 127.0.0.1", f.addr)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	fmt.Fprintf(stderr, "boa dashboard: listening on http://%s (storage %s, read-only): open it in a browser\n", ln.Addr(), storage.Redact(f.storage))
	opts := server.Options{Token: f.token, Logger: logger, ReadOnly: true, Preload: dashboardPreload, ShutdownGrace: shutdownGrace}
	return server.Serve(ctx, ln, store, opts, stop)
}
