package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// BenchmarkAskTell times one ask and one tell through HTTP (loopback,
// keep-alive) with the random sampler, so that the numbers are the
// server's and the storage's, not a model's. It reports the median and
// 95th percentile of each, in microseconds. The "+id" runs send a
// request_id with each ask, as boa worker does, which stores the answer;
// the "-20k" run asks a study of 20,000 COMPLETE trials, what boa serve
// adds to study.Ask there (BenchmarkAsk20k in package study).
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
	for _, run := range []string{"memory", "sqlite", "sqlite+id", "sqlite-20k", "postgres", "postgres+id"} {
		name, withID := strings.CutSuffix(run, "+id")
		name, big := strings.CutSuffix(name, "-20k")
		b.Run(run, func(b *testing.B) {
			store := stores[name](b)
			srv := httptest.NewServer(New(store, Options{}))
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
			if big {
				fill(b, store, "bench", 20000)
			}
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

// fill adds n COMPLETE trials of random points to the study name.
func fill(b *testing.B, store storage.Storage, name string, n int) {
	ctx := context.Background()
	rec, err := store.GetStudy(ctx, name)
	if err != nil {
		b.Fatal(err)
	}
	var sp space.Space
	if err := json.Unmarshal(rec.Space, &sp); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range n {
		u := sp.Sample(rng)
		params, err := sp.MarshalParams(sp.Decode(u))
		if err != nil {
			b.Fatal(err)
		}
		tr, err := store.AddTrial(ctx, storage.Trial{StudyID: rec.ID, State: storage.Running, RetryOf: -1, Worker: "fill", Params: params, X: u})
		if err != nil {
			b.Fatal(err)
		}
		v := rng.Float64()
		if err := store.FinishTrial(ctx, tr.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
			b.Fatal(err)
		}
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
