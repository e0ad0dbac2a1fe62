package analysis_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Which parameter matters? y = 10·lr + noise·0 over 300 random trials:
// fANOVA gives lr nearly all the variance.
func ExampleImportances() {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "depth", Kind: space.Int, Low: 1, High: 8},
	)
	rng := rand.New(rand.NewPCG(1, 2))
	s := analysis.Study{Space: sp}
	for i := range 300 {
		u := sp.Sample(rng)
		a := sp.Decode(u)
		s.Trials = append(s.Trials, study.Trial{Number: i, Params: a, X: u, State: study.Complete, Value: 10 * a["lr"].(float64)})
	}
	imp, err := analysis.Importances(s, 1)
	if err != nil {
		panic(err)
	}
	for _, m := range imp {
		fmt.Printf("%-5s %.2f\n", m.Param, m.Share)
	}
	// Output:
	// lr    1.00
	// depth 0.00
}
