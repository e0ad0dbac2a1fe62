package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/boaopt/boa/bench/peers"
	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// Session is one optimisation run of one optimiser: it proposes a
// configuration and is told its value (minimised). boa's samplers and the
// peers share the peers package's definition.
type Session = peers.Session

// BatchSession is a Session that can also propose n configurations to be
// evaluated together (a synchronous batch); Tell then takes their values
// one by one in the same order. boa's samplers have it; the peers do not
// (spec mixed §7.4: TPE has no synchronous batch).
type BatchSession interface {
	Session
	AskBatch(ctx context.Context, n int) ([]space.Assignment, error)
}

// Optimizers lists every optimiser the harness knows: boa's samplers and
// the peers.
func Optimizers() []string {
	return append(sampler.Names(), peers.Names()...)
}

// Known returns an error that says why when name is no optimiser the
// harness knows (Optimizers, a boa sampler perhaps with a transform).
func Known(name string) error {
	base, _, _, err := withTransform(name)
	switch {
	case err != nil:
		return err
	case slices.Contains(sampler.Names(), base), slices.Contains(peers.Names(), name):
		return nil
	}
	return fmt.Errorf("unknown sampler %q (known: %s)", name, strings.Join(Optimizers(), ", "))
}

// Available reports whether optimiser name can run on this machine; the
// note says what is missing, or what runs a peer that can run (see
// peers.Available).
func Available(name string) (bool, string) {
	if err := Known(name); err != nil {
		return false, err.Error()
	}
	if slices.Contains(peers.Names(), name) {
		return peers.Available(name)
	}
	return true, ""
}

// Runnable keeps the optimisers of names that can run here (Available),
// saying on w why it drops the others and what runs a peer; an unknown
// name is an error, as is none left.
func Runnable(names []string, w io.Writer) ([]string, error) {
	var out []string
	for _, s := range names {
		if err := Known(s); err != nil {
			return nil, err
		}
		ok, note := Available(s)
		switch {
		case !ok:
			fmt.Fprintf(w, "skipping %s: %s\n", s, note)
			continue
		case note != "":
			fmt.Fprintf(w, "%s: %s\n", s, note) // which interpreter runs an Optuna peer
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, errors.New("none of the samplers can run here")
	}
	return out, nil
}

// withTransform splits a boa sampler's name with a transform or options,
// such as "gpbo+log" or "gpbo+acquisition=fitbo+samples=20", into the
// sampler, the transform its study fits the model to
// (study.Spec.Transform) and its options (sampler.Options, the study
// file's mapping form), each checked; a name without "+" has
// transform.None and no options.
func withTransform(name string) (string, transform.Transform, sampler.Options, error) {
	base, rest, ok := strings.Cut(name, "+")
	if !ok {
		return name, transform.None, nil, nil
	}
	if !slices.Contains(sampler.Names(), base) {
		return name, transform.None, nil, fmt.Errorf("%s: a transform or option (+%s) applies to boa's samplers only (%s)", name, rest, strings.Join(sampler.Names(), ", "))
	}
	tf := transform.None
	var opts sampler.Options
	for _, part := range strings.Split(rest, "+") {
		if k, v, isOption := strings.Cut(part, "="); isOption {
			if opts == nil {
				opts = sampler.Options{}
			}
			opts[k] = v
			continue
		}
		var err error
		if tf, err = transform.Parse(part); err != nil {
			return name, transform.None, nil, fmt.Errorf("%s: %w (or an option key=value)", name, err)
		}
	}
	if _, err := sampler.NewWith(base, opts); err != nil {
		return name, transform.None, nil, fmt.Errorf("%s: %w", name, err)
	}
	return base, tf, opts, nil
}

// boaSampler is boa's sampler name, with its options, and the transform
// the name asks for (withTransform).
func boaSampler(name string) (sampler.Sampler, transform.Transform, error) {
	base, tf, opts, err := withTransform(name)
	if err != nil {
		return nil, tf, err
	}
	smp, err := sampler.NewWith(base, opts)
	return smp, tf, err
}

// HasBatch reports whether optimiser name has a synchronous batch mode
// (BatchSession): boa's samplers do, the peers do not.
func HasBatch(name string) bool {
	base, _, _, err := withTransform(name)
	return err == nil && slices.Contains(sampler.Names(), base)
}

// NewSession starts optimiser name on sp with seed, for a run of budget
// evaluations (0: unknown). boa's samplers see the budget as their study's
// (CoCaBO sets its bandits' horizon by it); the peers do not use one. A
// boa sampler's name may end in a transform and options,
// "gpbo+log+acquisition=ei" (withTransform).
func NewSession(ctx context.Context, name string, sp *space.Space, seed uint64, budget int) (Session, error) {
	return newSession(ctx, name, sp, seed, budget, nil)
}

// newSession is NewSession for a constrained problem c (nil: none), whose
// constraints boa's studies and the constrained peers are given.
func newSession(ctx context.Context, name string, sp *space.Space, seed uint64, budget int, c Constrained) (Session, error) {
	if slices.Contains(peers.Names(), name) {
		var limits constraint.Set
		if c != nil {
			limits = c.Constraints()
		}
		return peers.NewConstrained(ctx, name, sp, seed, limits)
	}
	smp, tf, err := boaSampler(name)
	if err != nil {
		return nil, err
	}
	st, err := newStudy(sp, study.Options{Name: "bench", Sampler: smp, Seed: seed, Budget: budget, Transform: tf}, c)
	if err != nil {
		return nil, err
	}
	// The harness's trials run on a simulated clock and send no
	// heartbeats, and no worker of it can die, so none may be reaped as
	// stale: with the default 30 s lease, 16 simulated workers and a
	// sampler taking 2 s a suggestion, a trial still running in simulated
	// time was failed after 30 s of wall time and its tell refused
	// (playbook-hl, Ackley-10, seed 8).
	st.SetLease(noLease)
	return &boaSession{st: st}, nil
}

// noLease is a heartbeat lease no benchmark outlasts.
const noLease = 100 * 365 * 24 * time.Hour

// boaSession drives a boa sampler through an in-memory study.
type boaSession struct {
	st      *study.Study
	running []int64 // asked and not yet told, in order
}

func (s *boaSession) Ask(ctx context.Context) (space.Assignment, error) {
	_, a, err := s.AskTrial(ctx)
	return a, err
}

func (s *boaSession) AskBatch(ctx context.Context, n int) ([]space.Assignment, error) {
	ts, err := s.st.AskBatch(ctx, n)
	if err != nil {
		return nil, err
	}
	as := make([]space.Assignment, len(ts))
	for i, t := range ts {
		s.running = append(s.running, t.ID)
		as[i] = t.Params
	}
	return as, nil
}

func (s *boaSession) Tell(ctx context.Context, value float64) error {
	return s.TellMetrics(ctx, value, nil)
}

func (s *boaSession) TellMetrics(ctx context.Context, value float64, metrics map[string]float64) error {
	if len(s.running) == 0 {
		return fmt.Errorf("bench: tell without a running trial")
	}
	return s.TellTrialMetrics(ctx, s.running[0], value, metrics)
}

func (s *boaSession) AskTrial(ctx context.Context) (int64, space.Assignment, error) {
	ts, err := s.st.AskBatch(ctx, 1)
	if err != nil {
		return 0, nil, err
	}
	s.running = append(s.running, ts[0].ID)
	return ts[0].ID, ts[0].Params, nil
}

func (s *boaSession) TellTrial(ctx context.Context, id int64, value float64) error {
	return s.TellTrialMetrics(ctx, id, value, nil)
}

func (s *boaSession) TellTrialMetrics(ctx context.Context, id int64, value float64, metrics map[string]float64) error {
	i := slices.Index(s.running, id)
	if i < 0 {
		return fmt.Errorf("bench: tell of trial %d, which is not running", id)
	}
	// The study records a value its transform cannot take (log: ≤ 0) as a
	// failed trial and its sampler never sees it: the run would go on as a
	// random search under the sampler's name.
	if err := s.st.Transform().Check(value); err != nil {
		return fmt.Errorf("bench: value %v: %w", value, err)
	}
	s.running = slices.Delete(s.running, i, i+1)
	return s.st.Tell(ctx, id, study.Result{Value: value, Metrics: metrics})
}

func (s *boaSession) Close() error { return nil }
