package server

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// A study name in the path that no study can have (a NUL byte, invalid
// UTF-8) is an unknown study, a 404, on every back-end: PostgreSQL refuses
// such text in a query, which answered a 500 before.
func TestUnstorableStudyName(t *testing.T) {
	all := backends(t)
	if os.Getenv(storagetest.PostgresEnv) != "" {
		all["postgres"] = func(t *testing.T) storage.Storage {
			s, err := storage.Open(context.Background(), storagetest.PostgresURL(t, true))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}
	for name, open := range all {
		t.Run(name, func(t *testing.T) {
			h := New(open(t), Options{Logger: testLogger(t)})
			for _, path := range []string{
				"/api/v1/studies/%00", "/api/v1/studies/a%FFb", "/api/v1/studies/%00/trials",
				"/api/v1/studies/%FF/best",
			} {
				if a := call(h, "GET", path, ""); a.status != http.StatusNotFound {
					t.Errorf("GET %s: status %d, want 404: %s", path, a.status, a.body)
				}
			}
			for _, path := range []string{"/api/v1/studies/%00/ask", "/api/v1/studies/%C3/ask"} {
				if a := call(h, "POST", path, ""); a.status != http.StatusNotFound {
					t.Errorf("POST %s: status %d, want 404: %s", path, a.status, a.body)
				}
			}
			if a := call(h, "POST", "/api/v1/studies/%FF/trials", `{"params":{"x":0.5}}`); a.status != http.StatusNotFound {
				t.Errorf("enqueue: status %d, want 404: %s", a.status, a.body)
			}
		})
	}
}
