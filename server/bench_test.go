package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// BenchmarkAskTell times one ask and one tell through HTTP (loopback,
// keep-alive) with the random sampler, so that the numbers are the
// server's and the storage's, not a model's. It reports the median and
// 95th percentile of each, in microseconds. The "+id" runs send a
// request_id with each ask, as boa worker does, which stores the answer.
//
//	go test -run '^$' -bench AskTell -benchtime 500x ./server
func BenchmarkAskTell(b *testing.B) {
	stores := map[string]func(b *testing.B) storage.Storage{
		"memory": func(*testing.B) storage.Storage { return storage.NewMemory() },
		"sqlite": func(b *testing.B) storage.Storage { return openBench(b, "sqlite:"+b.TempDir()+"/boa.db") },
		"postgres": func(b *testing.B) storage.Storage {
			return openBench(b, storagetest.PostgresURL(b, true))
		},
	}
	for _, run := range []string{"memory", "sqlite", "sqlite+id", "postgres", "postgres+id"} {
		name, withID := strings.CutSuffix(run, "+id")
		b.Run(run, func(b *testing.B) {
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
				body := `{"worker":"bench"}`
				if withID {
					body = fmt.Sprintf(`{"worker":"bench","request_id":"r%d"}`, len(asks))
				}
				out := post("/api/v1/studies/bench/ask", body)
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
