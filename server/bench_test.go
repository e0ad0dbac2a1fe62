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
// server's and the storage's, not a model's. It reports the median, 95th
// and 99th percentile of each, in microseconds, for each backend (the
// postgres runs need BOA_TEST_POSTGRES_URL and skip without it) and
// number of COMPLETE trials stored before the first ask: n=0, an empty
// study; n=1000 and n=20000, what boa serve adds to study.Ask there
// (BenchmarkAsk in package study). The "+id" runs send a request_id with
// each ask, as boa worker does, which stores the answer.
//
//	go test ./server -run '^$' -bench AskTell -benchtime 200x
//	go test ./server -run '^$' -bench 'AskTell/sqlite/n=20000$' -benchtime 200x
func BenchmarkAskTell(b *testing.B) {
	for _, backend := range []string{"memory", "sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			for _, run := range []string{"n=0", "n=0+id", "n=1000", "n=20000"} {
				b.Run(run, func(b *testing.B) {
					spec, withID := strings.CutSuffix(run, "+id")
					var n int
					if _, err := fmt.Sscanf(spec, "n=%d", &n); err != nil {
						b.Fatal(err)
					}
					benchAskTell(b, backend, n, withID)
				})
			}
		})
	}
}

func benchAskTell(b *testing.B, backend string, n int, withID bool) {
	store, filler := storagetest.OpenBench(b, backend)
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
	fill(b, filler, "bench", n)
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
		q := func(p int) float64 { return float64(m.d[(len(m.d)-1)*p/100].Microseconds()) }
		b.ReportMetric(q(50), m.name+"-p50-µs")
		b.ReportMetric(q(95), m.name+"-p95-µs")
		b.ReportMetric(q(99), m.name+"-p99-µs")
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
