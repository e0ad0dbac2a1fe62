package sampler_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

func TestAutoChoice(t *testing.T) {
	float := space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1}
	cat := func(i int) space.Param {
		return space.Param{Name: fmt.Sprint("c", i), Kind: space.Categorical, Choices: []string{"a", "b", "c"}}
	}
	many := []space.Param{float}
	for i := range 6 {
		many = append(many, cat(i))
	}
	child := space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"c0": {"a"}}}
	for _, tc := range []struct {
		name   string
		params []space.Param
		want   string
	}{
		{"continuous", []space.Param{float}, "gpbo"},
		{"one categorical", []space.Param{float, cat(0)}, "cocabo"},
		{"bool counts as categorical", []space.Param{float, {Name: "b", Kind: space.Bool}}, "cocabo"},
		{"six categorical", many, "casmopolitan"},
		{"conditional", []space.Param{float, cat(0), child}, "gpbo"},
	} {
		sp := space.MustNew(tc.params...)
		if got := sampler.NewAuto().Choice(sp); got != tc.want {
			t.Errorf("%s: auto chose %s, want %s", tc.name, got, tc.want)
		}
	}
	// The choice is used: a mixed space runs through cocabo without error.
	sp := space.MustNew(float, cat(0))
	a := sampler.NewAuto()
	h := &sampler.History{Space: sp, Seed: 1}
	for i := range 8 {
		h.Trials = i
		u, err := a.Suggest(context.Background(), h, rand.New(rand.NewPCG(1, uint64(i))))
		if err != nil {
			t.Fatal(err)
		}
		h.Observed = append(h.Observed, sampler.Observation{X: u, Y: u[0]})
	}
}
