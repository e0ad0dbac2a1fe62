package acq

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// fakeSampler returns fixed values, or an error.
type fakeSampler struct {
	values [][]float64
	err    error
}

func (s fakeSampler) Sample(X [][]float64, n int, rng *rand.Rand) ([][]float64, error) {
	return s.values, s.err
}

func TestThompson(t *testing.T) {
	cands := [][]float64{{0}, {0.25}, {0.5}, {0.75}}
	nan := math.NaN()
	for _, tc := range []struct {
		name    string
		s       fakeSampler
		want    int
		wantErr string
	}{
		{"argmin", fakeSampler{values: [][]float64{{3, -1, 2, 0}}}, 1, ""},
		{"last", fakeSampler{values: [][]float64{{3, 1, 2, -7}}}, 3, ""},
		{"tie goes to first", fakeSampler{values: [][]float64{{1, 0, 0, 4}}}, 1, ""},
		{"NaN skipped", fakeSampler{values: [][]float64{{nan, 2, nan, 1}}}, 3, ""},
		{"all NaN", fakeSampler{values: [][]float64{{nan, nan, nan, nan}}}, -1, "NaN"},
		{"sampler error", fakeSampler{err: errors.New("not positive definite")}, -1, "not positive definite"},
		{"wrong shape", fakeSampler{values: [][]float64{{1, 2}}}, -1, "want 4"},
	} {
		got, err := Thompson(tc.s, cands, rand.New(rand.NewPCG(1, 2)))
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: Thompson = %d, %v; want %d", tc.name, got, err, tc.want)
		}
	}
	if _, err := Thompson(fakeSampler{}, nil, nil); err == nil {
		t.Error("Thompson with no candidates: want an error")
	}
}
