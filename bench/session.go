package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Session is one optimisation run of one optimiser: it proposes a
// configuration and is told its value (minimised). boa's samplers and the
// peers share the peers package's definition.
type Session = peers.Session

// Optimizers lists every optimiser the harness knows: boa's samplers and
// the peers.
func Optimizers() []string {
	return append(sampler.Names(), peers.Names()...)
}

// Available reports whether optimiser name can run on this machine; the
// reason says what is missing.
func Available(name string) (bool, string) {
	if slices.Contains(sampler.Names(), name) {
		return true, ""
	}
	if slices.Contains(peers.Names(), name) {
		return peers.Available(name)
	}
	return false, fmt.Sprintf("unknown sampler %q (known: %s)", name, strings.Join(Optimizers(), ", "))
}

// NewSession starts optimiser name on sp with seed.
func NewSession(ctx context.Context, name string, sp *space.Space, seed uint64) (Session, error) {
	if slices.Contains(peers.Names(), name) {
		return peers.New(ctx, name, sp, seed)
	}
	smp, err := sampler.New(name)
	if err != nil {
		return nil, err
	}
	st, err := study.New(sp, study.Options{Name: "bench", Sampler: smp, Seed: seed})
	if err != nil {
		return nil, err
	}
	return &boaSession{st: st}, nil
}

// boaSession drives a boa sampler through an in-memory study.
type boaSession struct {
	st   *study.Study
	last int64
}

func (s *boaSession) Ask(ctx context.Context) (space.Assignment, error) {
	t, err := s.st.Ask(ctx)
	if err != nil {
		return nil, err
	}
	s.last = t.ID
	return t.Params, nil
}

func (s *boaSession) Tell(ctx context.Context, value float64) error {
	return s.st.Tell(ctx, s.last, study.Result{Value: value})
}

func (s *boaSession) Close() error { return nil }
