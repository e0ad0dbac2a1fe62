package server

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, to create a schema per run

	"github.com/boaopt/boa/storage"
)

// BenchmarkAskTell times one ask and one tell through HTTP (loopback,
// keep-alive) with the random sampler, so that the numbers are the
// server's and the storage's, not a model's. It reports the median and
// 95th percentile of each, in microseconds.
//
//	go test -run '^$' -bench AskTell -benchtime 500x ./server
func BenchmarkAskTell(b *testing.B) {
	stores := map[string]func(b *testing.B) storage.Storage{
		"memory": func(*testing.B) storage.Storage { return storage.NewMemory() },
		"sqlite": func(b *testing.B) storage.Storage { return openBench(b, "sqlite:"+b.TempDir()+"/boa.db") },
		"postgres": func(b *testing.B) storage.Storage {
			base := os.Getenv("BOA_TEST_POSTGRES_URL")
			if base == "" {
				b.Skip("BOA_TEST_POSTGRES_URL not set")
			}
			return openBench(b, benchSchema(b, base))
		},
	}
	for _, name := range []string{"memory", "sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(New(stores[name](b), Options{}))
			defer srv.Close()
			hc := srv.Client()
			post := func(path, body string) []byte {
				resp, err := hc.Post(srv.URL+path, "application/json", bytes.NewReader([]byte(body)))
				if err != nil {
					b.Fatal(err)
				}
				defer resp.Body.Close()
				out, _ := io.ReadAll(resp.Body)
				if resp.StatusCode >= 300 {
					b.Fatalf("%s: %d %s", path, resp.StatusCode, out)
				}
				return out
			}
			post("/api/v1/studies", studyBody("bench", 0))
			var asks, tells []time.Duration
			b.ResetTimer()
			for b.Loop() {
				t0 := time.Now()
				out := post("/api/v1/studies/bench/ask", `{"worker":"bench"}`)
				t1 := time.Now()
				var id int64
				if _, err := fmt.Sscanf(string(out), `{"trials":[{"id":%d`, &id); err != nil {
					b.Fatalf("ask answered %s", out)
				}
				post(trialPath(id, "tell"), `{"value":0.5}`)
				asks, tells = append(asks, t1.Sub(t0)), append(tells, time.Since(t1))
			}
			b.StopTimer()
			for _, m := range []struct {
				name string
				d    []time.Duration
			}{{"ask", asks}, {"tell", tells}} {
				slices.Sort(m.d)
				b.ReportMetric(float64(m.d[len(m.d)/2].Microseconds()), m.name+"-p50-µs")
				b.ReportMetric(float64(m.d[len(m.d)*95/100].Microseconds()), m.name+"-p95-µs")
			}
		})
	}
}

func openBench(b *testing.B, u string) storage.Storage {
	s, err := storage.Open(context.Background(), u)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// benchSchema creates a schema for one run and points search_path at it.
func benchSchema(b testing.TB, base string) string {
	schema := fmt.Sprintf("boa_bench_%d_%d", time.Now().UnixNano(), os.Getpid())
	db, err := sql.Open("pgx", base)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		db.Close()
		b.Fatal(err)
	}
	b.Cleanup(func() {
		defer db.Close()
		_, _ = db.Exec("DROP SCHEMA " + schema + " CASCADE")
	})
	u, err := url.Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
