package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/boaopt/boa/server/dashboard"
)

// sessionCookie carries a browser's proof that it was given the token.
const sessionCookie = "boa_session"

// routeDashboard adds the dashboard: its page at /, its files under
// /assets/, the login that turns the token into a session cookie, and the
// JSON endpoints its pages read (analysis.go, table.go).
func (s *server) routeDashboard() {
	s.mux.HandleFunc("GET /{$}", s.index)
	s.mux.HandleFunc("GET /assets/{file...}", s.asset)
	s.mux.HandleFunc("POST /login", s.login)
	s.handle("GET /api/v1/studies/{name}/analysis", s.analysis)
	s.handle("GET /api/v1/studies/{name}/table", s.table)
	s.handle("GET /api/v1/studies/{name}/export", s.export)
}

// index serves the single page; ?token=T logs the browser in first.
func (s *server) index(w http.ResponseWriter, r *http.Request) {
	if tok := r.URL.Query().Get("token"); tok != "" {
		if !s.startSession(w, r, tok) {
			writeError(w, http.StatusUnauthorized, "invalid token")
			return
		}
		// Off the address bar (and the browser's history) at once.
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	s.serveAsset(w, r, "index.html")
}

func (s *server) asset(w http.ResponseWriter, r *http.Request) {
	s.serveAsset(w, r, r.PathValue("file"))
}

func (s *server) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	data, err := fs.ReadFile(dashboard.Assets, name)
	if err != nil {
		writeError(w, http.StatusNotFound, "no such dashboard file: "+name)
		return
	}
	if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
		w.Header().Set("Content-Type", ct)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// The page is small and changes with the binary; the library is large
	// and pinned, and may be kept.
	if strings.HasPrefix(name, "vendor/") {
		w.Header().Set("Cache-Control", "max-age=86400")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	_, _ = w.Write(data)
}

// login takes the token from the dashboard's form (field "token").
func (s *server) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if !s.startSession(w, r, r.PostFormValue("token")) {
		http.Redirect(w, r, "/#login=failed", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// startSession sets the session cookie if tok is the server's token. The
// cookie holds an HMAC of the token, not the token: it proves knowledge of
// it to this server only, is HttpOnly (no script reads it) and SameSite
// strict (no other site's page sends it), and is accepted for GET
// requests only, so a session can read the dashboard but not ask or tell.
// A server without a token needs no session.
func (s *server) startSession(w http.ResponseWriter, r *http.Request, tok string) bool {
	if s.opts.Token == "" {
		return true
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.opts.Token)) != 1 {
		return false
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: s.sessionValue(), Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	return true
}

func (s *server) sessionValue() string {
	m := hmac.New(sha256.New, []byte(s.opts.Token))
	m.Write([]byte("boa dashboard session"))
	return hex.EncodeToString(m.Sum(nil))
}

func (s *server) hasSession(r *http.Request) bool {
	c, err := r.Cookie(sessionCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(s.sessionValue())) == 1
}
