package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/boaopt/boa/storage"
)

// DefaultShutdownGrace is how long Serve lets the requests in flight
// finish when Options.ShutdownGrace is 0.
const DefaultShutdownGrace = 10 * time.Second

// Serve serves the API over store (New) on ln until ctx ends, then shuts
// down: it stops accepting requests, lets those in flight finish for
// opts.ShutdownGrace, then cancels them, and gives up after 30 s in all. A
// request still waiting after the grace (an ask waiting for the suggestion
// lease of a replica that was killed) answers 503 and its client retries
// elsewhere, so the shutdown ends. shuttingDown, if not nil, is called once
// ctx has ended, before the shutdown begins.
func Serve(ctx context.Context, ln net.Listener, store storage.Storage, opts Options, shuttingDown func()) error {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	grace := opts.ShutdownGrace
	if grace <= 0 {
		grace = DefaultShutdownGrace
	}
	// Requests run under reqCtx, which the shutdown cancels after the
	// grace.
	reqCtx, cancelRequests := context.WithCancel(context.Background())
	defer cancelRequests()
	srv := &http.Server{
		BaseContext:       func(net.Listener) context.Context { return reqCtx },
		Handler:           New(store, opts),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(opts.Logger.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	if shuttingDown != nil {
		shuttingDown()
	}
	sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer time.AfterFunc(grace, cancelRequests).Stop()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
