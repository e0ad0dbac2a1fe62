package study

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
)

// BenchmarkAsk20k measures study.Ask on a SQLite study of 20,000 COMPLETE
// trials, for the samplers whose own time at that size is small (random,
// tpe): what is left is what the study pays to read its history. Each ask
// is followed by a tell outside the clock, so every timed ask sees the
// trials changed since the one before. first-ms is the first ask, which
// reads the whole study.
//
//	go test ./study -run '^$' -bench Ask20k -benchtime 50x
func BenchmarkAsk20k(b *testing.B) {
	for _, name := range []string{"random", "tpe"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			store, err := storage.OpenSQLite(ctx, filepath.Join(b.TempDir(), "boa.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			sp := space.MustNew(
				space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
				space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1},
				space.Param{Name: "z", Kind: space.Float, Low: 0, High: 1})
			smp, err := sampler.New(name)
			if err != nil {
				b.Fatal(err)
			}
			st, err := New(sp, Options{Sampler: smp, Storage: store, Name: "big", Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			fill20k(b, store, st.ID())
			// A fresh Study value, as a process that opens the study would.
			st, err = Open(ctx, store, "big")
			if err != nil {
				b.Fatal(err)
			}
			var d []time.Duration
			var last Trial
			for i := 0; b.Loop(); i++ {
				if i > 0 {
					b.StopTimer()
					if err := st.Tell(ctx, last.ID, Result{Value: float64(i % 17)}); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				start := time.Now()
				if last, err = st.Ask(ctx); err != nil {
					b.Fatal(err)
				}
				d = append(d, time.Since(start))
			}
			b.StopTimer()
			ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
			b.ReportMetric(ms(d[0]), "first-ms")
			rest := slices.Clone(d[1:])
			if len(rest) == 0 {
				return
			}
			slices.Sort(rest)
			b.ReportMetric(ms(rest[len(rest)/2]), "p50-ms")
			b.ReportMetric(ms(rest[(len(rest)-1)*99/100]), "p99-ms")
		})
	}
}

// fill20k adds 20,000 COMPLETE trials to the study in one go each.
func fill20k(b *testing.B, store storage.Storage, id int64) {
	ctx := context.Background()
	for i := range 20000 {
		x := []float64{float64(i%101) / 101, float64(i%37) / 37, float64(i%7) / 7}
		tr, err := store.AddTrial(ctx, storage.Trial{StudyID: id, State: storage.Running, RetryOf: -1, Worker: "fill",
			Params: fmt.Appendf(nil, `{"x":%v,"y":%v,"z":%v}`, x[0], x[1], x[2]), X: x})
		if err != nil {
			b.Fatal(err)
		}
		v := x[0] + x[1]*x[2]
		if err := store.FinishTrial(ctx, tr.ID, storage.Finish{State: storage.Complete, Value: &v}); err != nil {
			b.Fatal(err)
		}
	}
}
