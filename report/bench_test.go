package report_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/report"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// BenchmarkWrite50k writes the whole report of a 50,000-trial study (four
// workers, a 10-point curve per trial, one in ten PRUNED, one in fifty
// FAILED): what boa report costs at the dashboard's target size, less
// reading the storage.
func BenchmarkWrite50k(b *testing.B) {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-5, High: 1, Log: true},
		space.Param{Name: "momentum", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 8},
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam", "rmsprop"}},
	)
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := report.Study{Study: analysis.Study{Space: sp}, Name: "big", Seed: 1}
	for i := range 50000 {
		u := sp.Sample(rng)
		a := sp.Decode(u)
		v := a["momentum"].(float64)*float64(a["layers"].(int)) + rng.Float64()
		tr := study.Trial{Number: i, Params: a, X: u, State: study.Complete, Value: v, RetryOf: -1,
			Worker: []string{"a", "b", "c", "d"}[i%4], Started: t0.Add(time.Duration(i) * time.Second), Finished: t0.Add(time.Duration(i+4) * time.Second)}
		for k := range 10 {
			tr.Reports = append(tr.Reports, study.Report{Step: int64(k), Value: v + 1/float64(k+1)})
		}
		switch {
		case i%10 == 3:
			tr.State = study.Pruned
		case i%50 == 7:
			tr.State, tr.Reason = study.Failed, "exit status 1"
		}
		s.Trials = append(s.Trials, tr)
	}
	dir := b.TempDir()
	for b.Loop() {
		if _, err := report.Write(dir, s); err != nil {
			b.Fatal(err)
		}
	}
}
