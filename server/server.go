package server

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// DefaultMaxBody bounds a request body when Options.MaxBody is 0. The
// largest legitimate body, a study file, is a few KiB.
const DefaultMaxBody = 1 << 20

// MaxAsk is the largest n an ask may request at once.
const MaxAsk = 100

// Options configure New.
type Options struct {
	// Token, when not empty, is required of every /api/ request as
	// "Authorization: Bearer <Token>" (compared in constant time).
	Token string
	// Lease is how long a running trial may go without a heartbeat before
	// an ask marks it FAILED (stale) and re-queues it; 0 means
	// study.DefaultLease. Every server sharing a database should use the
	// same lease.
	Lease time.Duration
	// MaxBody bounds request bodies in bytes (larger ones get a 413); 0
	// means DefaultMaxBody.
	MaxBody int64
	// Logger receives one line per failed request and every 5xx; nil
	// discards.
	Logger *slog.Logger
	// ShutdownGrace is how long Serve lets the requests in flight finish
	// once its context ends; 0 means DefaultShutdownGrace.
	ShutdownGrace time.Duration
	// ReadOnly serves only what reads (boa dashboard): every endpoint that
	// writes (create, delete, ask, enqueue, tell, report, heartbeat)
	// answers 403.
	ReadOnly bool
	// Preload, when positive, reads the newest studies' trials in the
	// background as soon as the handler is made, up to about this many
	// trials in all, so that their first dashboard page is drawn from
	// memory rather than after a read of the whole study (about 2 s for
	// 50,000 trials on 2 cores). boa dashboard sets it.
	Preload int
}

// server holds what the handlers share. All of it is safe for concurrent
// use; the study cache holds nothing that is not also in the storage.
type server struct {
	store   storage.Storage
	opts    Options
	log     *slog.Logger
	studies *cache
	mux     *http.ServeMux
	snaps   *snapshots // the dashboard's view of each study (analysis.go)
}

// New returns the API handler over store. The caller keeps ownership of
// store (New never closes it).
func New(store storage.Storage, opts Options) http.Handler {
	if opts.Lease <= 0 {
		opts.Lease = study.DefaultLease
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &server{store: store, opts: opts, log: opts.Logger, mux: http.NewServeMux()}
	s.studies = newCache(store, opts.Lease)
	s.snaps = newSnapshots(s.studies, store)
	if opts.Preload > 0 {
		go s.snaps.preload(opts.Preload, opts.Logger)
	}

	s.handle("POST /api/v1/studies", s.createStudy)
	s.handle("GET /api/v1/studies", s.listStudies)
	s.handle("GET /api/v1/studies/{name}", s.getStudy)
	s.handle("DELETE /api/v1/studies/{name}", s.deleteStudy)
	s.handle("PATCH /api/v1/studies/{name}", s.patchStudy)
	s.handle("POST /api/v1/studies/{name}/ask", s.ask)
	s.handle("POST /api/v1/studies/{name}/trials", s.enqueue)
	s.handle("GET /api/v1/studies/{name}/trials", s.trials)
	s.handle("GET /api/v1/studies/{name}/best", s.best)
	s.handle("GET /api/v1/studies/{name}/motifs", s.motifs)
	s.handle("POST /api/v1/trials/{id}/tell", s.tell)
	s.handle("POST /api/v1/trials/{id}/report", s.report)
	s.handle("POST /api/v1/trials/{id}/heartbeat", s.heartbeat)
	s.routeDashboard()
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	// A catch-all, so that unknown paths and wrong methods also answer
	// JSON (the mux's own 404 and 405 are plain text).
	s.mux.HandleFunc("/", s.notFound)

	return s.recoverer(s.authenticate(canonical(s.mux)))
}

// canonical answers a path that is not in clean form ("//", "..", a
// trailing slash) with a JSON 404, where the mux would redirect with an
// HTML body: API clients always get JSON.
func canonical(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p != "/" && (p == "" || path.Clean(p) != p) {
			writeError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint: %s %q (paths have no empty segments, dots or trailing slash)", r.Method, p))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// handler is an endpoint that reports failure by returning an error; an
// *apiError carries its status, anything else is a 500.
type handler func(w http.ResponseWriter, r *http.Request) error

func (s *server) handle(pattern string, h handler) {
	if s.opts.ReadOnly && !strings.HasPrefix(pattern, "GET ") {
		h = func(http.ResponseWriter, *http.Request) error {
			return errorf(http.StatusForbidden, "this server is read-only (boa dashboard): %s changes a study; boa serve takes it", pattern)
		}
	}
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		err := h(w, r)
		if err == nil {
			return
		}
		var ae *apiError
		if !errors.As(err, &ae) {
			ae = classify(err)
		}
		level := slog.LevelInfo
		switch {
		case r.Context().Err() != nil:
			// The client went away (a worker killed, a timed-out
			// heartbeat): nobody reads the answer, nothing failed here.
		case ae.status == http.StatusServiceUnavailable:
			level = slog.LevelWarn // clients retry; a database restart makes dozens
		case ae.status >= 500:
			level = slog.LevelError
		}
		s.log.Log(r.Context(), level, "request failed", "method", r.Method, "path", r.URL.Path,
			"status", ae.status, "error", ae.msg, "seconds", time.Since(start).Seconds())
		writeError(w, ae.status, ae.msg)
	})
}

// authenticate requires the bearer token on /api/ paths when one is set.
// A browser, which cannot send the header from a link, shows the token
// once (/?token=T or the dashboard's login form, dashboard.go) and then
// carries a session cookie, which GET requests accept in its place.
func (s *server) authenticate(next http.Handler) http.Handler {
	if s.opts.Token == "" {
		return next
	}
	want := []byte(s.opts.Token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Authorization") == "" && s.hasSession(r) {
			next.ServeHTTP(w, r)
			return
		}
		auth := r.Header.Get("Authorization")
		scheme, got, ok := strings.Cut(auth, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), want) != 1 {
			msg := "missing bearer token: send the header \"Authorization: Bearer $BOA_TOKEN\""
			if auth != "" {
				msg = "invalid bearer token"
			}
			w.Header().Set("WWW-Authenticate", `Bearer realm="boa"`)
			writeError(w, http.StatusUnauthorized, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic into a logged 500, so that one bad request
// cannot take the service down.
func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v) // the client went away; net/http handles it quietly
			}
			s.log.Error("panic serving request", "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			writeError(w, http.StatusInternalServerError, "internal error (logged by the server)")
		}()
		next.ServeHTTP(w, r)
	})
}

// notFound answers a path no route has; a path that another method would
// take is a 405 with the Allow header.
func (s *server) notFound(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method || (m == http.MethodGet && r.Method == http.MethodHead) {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" && pattern != "" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed on %s (allowed: %s)",
			r.Method, r.URL.Path, strings.Join(allow, ", ")))
		return
	}
	writeError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint: %s %s (the API is under /api/v1/; see docs/http-api.md)",
		r.Method, r.URL.Path))
}
