package bench

import (
	"context"
	"fmt"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// newBoaMulti is the in-memory study of a boa sampler's run on a
// multi-objective problem: one objective per name, each minimised.
func newBoaMulti(sp *space.Space, o study.Options, names []string) (MultiSession, error) {
	o.Objectives = make([]study.Goal, len(names))
	for i, n := range names {
		o.Objectives[i] = study.Goal{Name: n, Direction: study.Minimize}
	}
	st, err := study.New(sp, o)
	if err != nil {
		return nil, err
	}
	st.SetLease(noLease) // as newSession's
	return &boaMultiSession{boaSession: &boaSession{st: st}}, nil
}

// boaMultiSession drives a boa sampler through a study of several
// objectives.
type boaMultiSession struct{ *boaSession }

func (s *boaMultiSession) TellValues(ctx context.Context, values []float64) error {
	if len(s.running) == 0 {
		return fmt.Errorf("bench: tell without a running trial")
	}
	id := s.running[0]
	s.running = s.running[1:]
	return s.st.Tell(ctx, id, study.Result{Values: values})
}
