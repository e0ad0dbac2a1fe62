package peers

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAskTell times one ask and one tell, averaged over a 100-trial run
// of each peer on the mixed space (process start-up excluded). It reports
// the mean over all 100 trials and over the last ten, where the history is
// largest.
func BenchmarkAskTell(b *testing.B) {
	sp := mixedSpace()
	ctx := context.Background()
	const trials = 100
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			need(b, name)
			var all, last time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s, err := New(ctx, name, sp, uint64(i))
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				for j := range trials {
					start := time.Now()
					a, err := s.Ask(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if err := s.Tell(ctx, mixedObjective(a)); err != nil {
						b.Fatal(err)
					}
					d := time.Since(start)
					all += d
					if j >= trials-10 {
						last += d
					}
				}
				b.StopTimer()
				s.Close()
			}
			b.ReportMetric(float64(all.Microseconds())/1e3/float64(b.N*trials), "ms/trial")
			b.ReportMetric(float64(last.Microseconds())/1e3/float64(b.N*10), "ms/trial@90-99")
			b.ReportMetric(0, "ns/op")
		})
	}
}
