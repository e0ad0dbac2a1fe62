package report_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/report"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Write a study's report: the PNGs and report.md. Here the trials are made
// up in memory; boa report reads them from a storage (study.Trials).
func ExampleWrite() {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 4},
	)
	rng := rand.New(rand.NewPCG(1, 2))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := report.Study{Study: analysis.Study{Space: sp}, Name: "demo", Seed: 1}
	for i := range 30 {
		u := sp.Sample(rng)
		a := sp.Decode(u)
		s.Trials = append(s.Trials, study.Trial{
			Number: i, Params: a, X: u, State: study.Complete, RetryOf: -1, Worker: "w1",
			Value:   a["lr"].(float64) + float64(a["layers"].(int)),
			Started: t0.Add(time.Duration(i) * time.Minute), Finished: t0.Add(time.Duration(i+1) * time.Minute),
		})
	}
	dir, _ := os.MkdirTemp("", "report")
	defer os.RemoveAll(dir)
	r, err := report.Write(dir, s)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Files)
	fmt.Println(r.Skipped)
	// Output:
	// [history.png importance.png edf.png slice-lr.png slice-layers.png contour.png timeline.png report.md]
	// [Intermediate values: no trial reported intermediate values]
}
