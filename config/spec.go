package config

import (
	"cmp"
	"fmt"
	"maps"
	"time"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// Spec is the study the file describes, as study.Create takes it: one
// conversion for `boa run` and for POST /api/v1/studies, so that a file
// means the same study whichever way it is created. The file's storage,
// workers and objective are not part of it: they say where and how the
// study is run, not what it is.
func (s *Study) Spec() (study.Spec, error) {
	dir, err := study.ParseDirection(s.Direction)
	if err != nil {
		return study.Spec{}, err
	}
	tf, err := transform.Parse(s.Transform)
	if err != nil {
		return study.Spec{}, fmt.Errorf("transform: %w", err)
	}
	cons := constraint.Set(s.Constraints)
	if s.Deploy != nil {
		cons = maps.Clone(cons)
		if cons == nil {
			cons = constraint.Set{}
		}
		maps.Copy(cons, s.Deploy.constraints())
	}
	goals, err := s.Directions.Goals()
	if err != nil {
		return study.Spec{}, fmt.Errorf("directions: %w", err)
	}
	return study.Spec{
		Name: s.Name, Direction: dir, Objectives: goals, Space: s.Space, Sampler: s.SamplerName(), SamplerOptions: s.Sampler.Options,
		Seed: s.Seed, Budget: s.Trials, Transform: tf, Pruner: s.PrunerSpec(), Constraints: cons, Fidelity: s.Fidelity.spec(),
	}, nil
}

// DefaultLogs is the folder of the trials' logs when a study file names
// none (objective.logs).
const DefaultLogs = "boa-logs"

// RunnerCommand is the command the objective runs once per trial (package
// runner). Validate has checked its env; a Study built in code is checked
// here.
func (o *Objective) RunnerCommand() (runner.Command, error) {
	cmd := o.Command.Runner()
	cmd.Dir, cmd.Timeout, cmd.LogDir = o.Dir, time.Duration(o.Timeout), cmp.Or(o.Logs, DefaultLogs)
	env, err := runner.Env(o.Env)
	if err != nil {
		return cmd, fmt.Errorf("objective.%w", err)
	}
	cmd.Env = env
	return cmd, nil
}
