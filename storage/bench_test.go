package storage_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// backends lists the storages to benchmark; PostgreSQL only when
// BOA_TEST_POSTGRES_URL is set.
func backends(durable bool) []struct {
	name string
	open func(testing.TB) storage.Storage
} {
	list := []struct {
		name string
		open func(testing.TB) storage.Storage
	}{
		{"memory", func(testing.TB) storage.Storage { return storage.NewMemory() }},
		{"sqlite", openSQLite},
	}
	if os.Getenv(pgEnv) != "" {
		list = append(list, struct {
			name string
			open func(testing.TB) storage.Storage
		}{"postgres", func(b testing.TB) storage.Storage { return openPostgres(b, durable) }})
	}
	return list
}

// timed runs op until b.Loop ends and reports the median and 99th
// percentile latency next to the mean that ns/op gives. prep, if not nil,
// runs before each op, outside the per-op clock.
func timed(b *testing.B, prep func(i int), op func(i int) error) {
	var d []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if prep != nil {
			prep(i)
		}
		start := time.Now()
		if err := op(i); err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(d)
	ms := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))]) / float64(time.Millisecond) }
	b.ReportMetric(ms(0.5), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// BenchmarkTell measures FinishTrial of a running trial (the "tell").
func BenchmarkTell(b *testing.B) {
	for _, be := range backends(true) {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			st := storagetest.NewStudy(b, s, "tell")
			// Trials are added in batches outside the timer; b.Loop's count is
			// not known up front.
			var ids []int64
			v := 0.5
			timed(b, func(i int) {
				if i == len(ids) {
					b.StopTimer()
					for range 1000 {
						tr, err := s.AddTrial(context.Background(), storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1,
							Params: []byte(`{"x":0.5}`), X: []float64{0.5}})
						if err != nil {
							b.Fatal(err)
						}
						ids = append(ids, tr.ID)
					}
					b.StartTimer()
				}
			}, func(i int) error {
				return s.FinishTrial(context.Background(), ids[i], storage.Finish{State: storage.Complete, Value: &v,
					Metrics: map[string]float64{"acc": 0.9}})
			})
		})
	}
}

// BenchmarkAsk measures what a sampler does around one suggestion: take the
// study's lease, add the trial, release the lease.
func BenchmarkAsk(b *testing.B) {
	for _, be := range backends(true) {
		b.Run(be.name, func(b *testing.B) {
			s := be.open(b)
			defer s.Close()
			st := storagetest.NewStudy(b, s, "ask")
			ctx := context.Background()
			timed(b, nil, func(int) error {
				lease, err := s.Lock(ctx, st.ID, "bench", time.Minute)
				if err != nil {
					return err
				}
				if _, err := s.AddTrial(ctx, storage.Trial{StudyID: st.ID, State: storage.Running, Worker: "bench", RetryOf: -1,
					Params: []byte(`{"x":0.5}`), X: []float64{0.5}}); err != nil {
					return err
				}
				return lease.Unlock()
			})
		})
	}
}

// BenchmarkTrials20k measures loading a 20,000-trial study: all of it
// with reports (Trials), as a study's first ask does (TrialsChangedSince
// from 0, no reports), and the changes of one tell since the last read,
// what each later ask reads.
func BenchmarkTrials20k(b *testing.B) {
	// Durability does not change what a read costs; the 20,000 writes of
	// the set-up run without a WAL flush each.
	for _, be := range backends(false) {
		s := be.open(b)
		st := storagetest.Fill(b, s, "big", 20000)
		ctx := context.Background()
		b.Run(be.name, func(b *testing.B) {
			timed(b, nil, func(int) error {
				ts, err := s.Trials(ctx, st.ID)
				if err == nil && len(ts) != 20000 {
					b.Fatalf("%d trials", len(ts))
				}
				return err
			})
		})
		b.Run(be.name+"/first-ask", func(b *testing.B) {
			timed(b, nil, func(int) error {
				ts, _, err := s.TrialsChangedSince(ctx, st.ID, 0)
				if err == nil && len(ts) != 20000 {
					b.Fatalf("%d trials", len(ts))
				}
				return err
			})
		})
		b.Run(be.name+"/changed", func(b *testing.B) {
			all, last, err := s.TrialsChangedSince(ctx, st.ID, 0)
			if err != nil {
				b.Fatal(err)
			}
			// Each read follows one change, a log path set outside the
			// clock, as an ask follows a tell.
			timed(b, func(int) {
				if err := s.SetLogPath(ctx, all[0].ID, "log"); err != nil {
					b.Fatal(err)
				}
			}, func(int) error {
				ts, l, err := s.TrialsChangedSince(ctx, st.ID, last)
				if err == nil && len(ts) != 1 {
					b.Fatalf("%d trials changed", len(ts))
				}
				last = l
				return err
			})
		})
		s.Close()
	}
}

// BenchmarkTrialsReports measures loading a study of 1000 trials with 100
// reports each, with and without the reports: an ask loads it without
// (TrialsWithoutReports), since the samplers use none.
func BenchmarkTrialsReports(b *testing.B) {
	for _, be := range backends(false) {
		s := be.open(b)
		st := storagetest.NewStudy(b, s, "reports")
		ctx := context.Background()
		for range 1000 {
			tr, err := s.AddTrial(ctx, storage.Trial{StudyID: st.ID, State: storage.Running, RetryOf: -1,
				Params: []byte(`{"x":0.5}`), X: []float64{0.5}})
			if err != nil {
				b.Fatal(err)
			}
			for step := range int64(100) {
				if err := s.Report(ctx, tr.ID, step, float64(step)); err != nil {
					b.Fatal(err)
				}
			}
		}
		for _, load := range []struct {
			name string
			f    func(context.Context, int64) ([]storage.Trial, error)
		}{{"with", s.Trials}, {"without", s.TrialsWithoutReports}} {
			b.Run(be.name+"/"+load.name, func(b *testing.B) {
				timed(b, nil, func(int) error {
					ts, err := load.f(ctx, st.ID)
					if err == nil && len(ts) != 1000 {
						b.Fatalf("%d trials", len(ts))
					}
					return err
				})
			})
		}
		s.Close()
	}
}
