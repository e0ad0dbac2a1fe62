package study

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/transform"
)

// ErrNoRecommendation is Recommend's error for a sampler without a model
// to ask (sampler.Recommender) or a study without enough trials for one.
var ErrNoRecommendation = errors.New("the sampler has no model to recommend from")

// Recommendation is the configuration the sampler's model believes best.
type Recommendation struct {
	Params space.Assignment
	// Predicted is the model's mean there, in the study's direction;
	// nil when a transform (Spec.Transform) stands between the model and
	// the values.
	Predicted *float64
}

// Recommend asks the study's sampler for the configuration its model
// believes best, x̂ = argmin μ(x) (sampler.Recommender), which on a
// noisy objective is a better answer than the best observed trial
// [000 §3.3.3]. It reads the trials and writes nothing. The model's
// random choices (restarts, samples) draw from the study seed, so the
// same study gives the same recommendation.
func (s *Study) Recommend(ctx context.Context) (Recommendation, error) {
	h, err := s.History(ctx)
	if err != nil {
		return Recommendation{}, err
	}
	r, ok := s.sampler.(sampler.Recommender)
	if c, isChooser := s.sampler.(sampler.Chooser); !ok && isChooser {
		r, ok = c.Chosen(h).(sampler.Recommender) // auto's gpbo
	}
	if !ok {
		return Recommendation{}, s.errorf("%s: %w", s.sampler.Name(), ErrNoRecommendation)
	}
	u, mu, err := r.Recommend(ctx, h, rand.New(rand.NewPCG(s.rec.Seed, uint64(h.Trials))))
	if err != nil {
		return Recommendation{}, s.errorf("%s: %w", s.sampler.Name(), err)
	}
	rec := Recommendation{Params: s.space.Decode(u)}
	if s.tf == transform.None {
		v := s.internal(mu)
		rec.Predicted = &v
	}
	return rec, nil
}
