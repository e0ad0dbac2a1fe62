package analysis_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// random builds a study of n COMPLETE trials drawn uniformly from sp
// (unit cube, rounded to legal values) with values f(params).
func random(t testing.TB, sp *space.Space, n int, seed uint64, f func(space.Assignment) float64) analysis.Study {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	s := analysis.Study{Space: sp}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		u := sp.Sample(rng)
		a := sp.Decode(u)
		x, err := sp.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		s.Trials = append(s.Trials, study.Trial{
			ID: int64(i + 1), Number: i, Params: a, X: x, State: study.Complete, Value: f(a), RetryOf: -1,
			Worker: []string{"w1", "w2"}[i%2], Started: t0.Add(time.Duration(i) * time.Second), Finished: t0.Add(time.Duration(i+1) * time.Second),
		})
	}
	return s
}

// unit is a space of d floats on [0,1], named x0, x1, ...
func unit(d int) *space.Space {
	ps := make([]space.Param, d)
	for i := range ps {
		ps[i] = space.Param{Name: "x" + string(rune('0'+i)), Kind: space.Float, Low: 0, High: 1}
	}
	return space.MustNew(ps...)
}

func share(imp []analysis.Importance, name string) float64 {
	for _, m := range imp {
		if m.Param == name {
			return m.Share
		}
	}
	return -1
}

func ptr(b bool) *bool { return &b }
