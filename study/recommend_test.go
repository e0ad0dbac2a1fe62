package study

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/sampler/random"
	"github.com/boaopt/boa/space"
)

// TestRecommend: a study of gpbo recommends the minimiser of its model's
// mean, near the true one, with the mean in the study's direction; a
// sampler without a model says so (ErrNoRecommendation).
func TestRecommend(t *testing.T) {
	ctx := context.Background()
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: -2, High: 2})
	for _, dir := range []Direction{Minimize, Maximize} {
		st, err := New(sp, Options{Sampler: gpbo.New(), Seed: 1, Direction: dir})
		if err != nil {
			t.Fatal(err)
		}
		sign := 1.0
		if dir == Maximize {
			sign = -1
		}
		err = st.Optimize(ctx, func(_ context.Context, tr *Trial) (float64, error) {
			x := tr.Params["x"].(float64)
			return sign * ((x-0.7)*(x-0.7) - 1), nil
		}, 12, OptimizeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := st.Recommend(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if x := rec.Params["x"].(float64); math.Abs(x-0.7) > 0.05 || rec.Predicted == nil || math.Abs(*rec.Predicted-sign*-1) > 0.05 {
			t.Errorf("%v: recommended x = %v, predicted %v; want about 0.7 and %v", dir, x, *rec.Predicted, -sign)
		}
	}
	st, err := New(sp, Options{Sampler: random.Uniform{}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Recommend(ctx); !errors.Is(err, ErrNoRecommendation) {
		t.Errorf("random: %v, want ErrNoRecommendation", err)
	}
}
