package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// Direction is the sense of the objective.
type Direction int

const (
	Minimize Direction = iota
	Maximize
)

func (d Direction) String() string {
	if d == Maximize {
		return "maximize"
	}
	return "minimize"
}

// ParseDirection reads "minimize" or "maximize" (also "min", "max").
func ParseDirection(s string) (Direction, error) {
	switch strings.ToLower(s) {
	case "minimize", "minimise", "min", "":
		return Minimize, nil
	case "maximize", "maximise", "max":
		return Maximize, nil
	}
	return 0, fmt.Errorf("direction must be minimize or maximize, got %q", s)
}

// Options configure a study.
type Options struct {
	Name      string
	Direction Direction
	Sampler   sampler.Sampler // nil means sampler "auto"
	Seed      uint64
}

// ErrFinished is returned by Tell for a trial that already has a result.
var ErrFinished = errors.New("trial already finished")

// Study is an in-memory optimisation study. It is safe for concurrent use.
type Study struct {
	name    string
	dir     Direction
	space   *space.Space
	sampler sampler.Sampler
	seed    uint64

	askMu  sync.Mutex // serialises Ask so each suggestion sees every earlier one as pending
	mu     sync.Mutex // guards trials
	trials []*Trial
}

// New returns an empty study over sp.
func New(sp *space.Space, o Options) (*Study, error) {
	if sp == nil || sp.Len() == 0 {
		return nil, errors.New("study: the search space has no parameters")
	}
	s := o.Sampler
	if s == nil {
		s = sampler.NewAuto()
	}
	name := o.Name
	if name == "" {
		name = "study"
	}
	return &Study{name: name, dir: o.Direction, space: sp, sampler: s, seed: o.Seed}, nil
}

func (s *Study) Name() string             { return s.name }
func (s *Study) Direction() Direction     { return s.dir }
func (s *Study) Space() *space.Space      { return s.space }
func (s *Study) Sampler() sampler.Sampler { return s.sampler }

// internal maps a user value to the minimised internal value.
func (s *Study) internal(v float64) float64 {
	if s.dir == Maximize {
		return -v
	}
	return v
}

// Ask creates a new RUNNING trial with the sampler's suggestion.
func (s *Study) Ask(ctx context.Context) (Trial, error) {
	s.askMu.Lock()
	defer s.askMu.Unlock()
	s.mu.Lock()
	h := s.history()
	s.mu.Unlock()
	rng := rand.New(rand.NewPCG(s.seed, uint64(h.Trials)))
	u, err := s.sampler.Suggest(ctx, h, rng)
	if err != nil {
		return Trial{}, fmt.Errorf("study %s: trial %d: %s: %w", s.name, h.Trials, s.sampler.Name(), err)
	}
	s.space.Round(u)
	t := &Trial{Number: h.Trials, Params: s.space.Decode(u), X: u, State: Running, Started: time.Now()}
	s.mu.Lock()
	s.trials = append(s.trials, t)
	s.mu.Unlock()
	return t.clone(), nil
}

// history builds the sampler's view; s.mu must be held.
func (s *Study) history() *sampler.History {
	h := &sampler.History{Space: s.space, Trials: len(s.trials), Seed: s.seed}
	for _, t := range s.trials {
		switch t.State {
		case Complete:
			h.Observed = append(h.Observed, sampler.Observation{X: t.X, Y: s.internal(t.Value)})
		case Waiting, Running:
			h.Pending = append(h.Pending, t.X)
		}
	}
	return h
}

// Tell records the result of trial number. A non-nil err, or a value that
// is NaN or infinite, marks the trial FAILED with the reason; the study is
// otherwise unaffected.
func (s *Study) Tell(number int, value float64, err error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if number < 0 || number >= len(s.trials) {
		return fmt.Errorf("study %s: no trial %d", s.name, number)
	}
	t := s.trials[number]
	if t.State.Finished() {
		return fmt.Errorf("study %s: trial %d is %s: %w", s.name, number, t.State, ErrFinished)
	}
	t.Finished = time.Now()
	switch {
	case err != nil:
		t.State, t.Reason = Failed, err.Error()
	case math.IsNaN(value) || math.IsInf(value, 0):
		t.State, t.Reason = Failed, fmt.Sprintf("objective returned %v", value)
	default:
		t.State, t.Value = Complete, value
	}
	return nil
}

// Trials returns a copy of every trial, in order.
func (s *Study) Trials() []Trial {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Trial, len(s.trials))
	for i, t := range s.trials {
		out[i] = t.clone()
	}
	return out
}

// Best returns the best COMPLETE trial; ok is false when there is none.
func (s *Study) Best() (best Trial, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b *Trial
	for _, t := range s.trials {
		if t.State == Complete && (b == nil || s.internal(t.Value) < s.internal(b.Value)) {
			b = t
		}
	}
	if b == nil {
		return Trial{}, false
	}
	return b.clone(), true
}
