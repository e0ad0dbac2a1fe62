package random

import (
	"context"
	"slices"
	"testing"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

func TestSobolIsStateless(t *testing.T) {
	sp := samplertest.UnitSpace(t, 3)
	at := func(i int) []float64 {
		u, _ := Sobol{}.Suggest(context.Background(), &sampler.History{Space: sp, Trials: i, Seed: 7}, nil)
		return u
	}
	if !slices.Equal(at(4), at(4)) {
		t.Fatal("the same trial index gave two points")
	}
	if slices.Equal(at(4), at(5)) {
		t.Fatal("consecutive trials got the same point")
	}
}
