package study

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/storage/storagetest"
)

// BenchmarkAsk measures study.Ask on a study of n COMPLETE trials in each
// backend, for the samplers whose own time at these sizes is small
// (random, tpe): what is left is what the study pays to read its history
// and write the new trial. Each ask is followed by a tell outside the
// clock, so every timed ask sees the trials changed since the one before.
// first-ms is the first ask of a freshly opened Study, which reads the
// whole study (its load). The postgres runs need BOA_TEST_POSTGRES_URL
// and skip without it.
//
//	go test ./study -run '^$' -bench 'Ask$' -benchtime 30x
//	go test ./study -run '^$' -bench 'Ask$/sqlite/n=20000' -benchtime 30x
func BenchmarkAsk(b *testing.B) {
	for _, backend := range []string{"memory", "sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			for _, n := range []int{1000, 20000} {
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					for _, name := range []string{"random", "tpe"} {
						b.Run(name, func(b *testing.B) { benchAsk(b, backend, n, name) })
					}
				})
			}
		})
	}
}

func benchAsk(b *testing.B, backend string, n int, samplerName string) {
	ctx := context.Background()
	store, filler := storagetest.OpenBench(b, backend)
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "z", Kind: space.Float, Low: 0, High: 1})
	smp, err := sampler.New(samplerName)
	if err != nil {
		b.Fatal(err)
	}
	st, err := New(sp, Options{Sampler: smp, Storage: store, Name: "big", Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	fillN(b, filler, st.ID(), n)
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
}

// fillN adds n COMPLETE trials to the study, one add and one finish each.
func fillN(b *testing.B, store storage.Storage, id int64, n int) {
	ctx := context.Background()
	for i := range n {
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
