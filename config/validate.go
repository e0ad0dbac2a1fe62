package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
	"github.com/boaopt/boa/transform"
)

// Validate checks the fields that the YAML and JSON decoders cannot,
// and the objective's command and env against the space (what the
// runner would refuse before the first trial: a {name} that is not a
// parameter or is a conditional one, an env name with '='). Every problem
// is reported, one error each, joined with errors.Join.
func (s *Study) Validate() error {
	return errors.Join(s.validate(fileInfo{})...)
}

// fileInfo is what ParseYAML knows beyond the Study: the line of each
// field, and whether space: was given but had errors (reported already),
// with the parameter names it declares.
type fileInfo struct {
	lines       map[string]int  // "trials", "objective.env", ... → line
	failed      map[string]bool // fields whose value could not be read (reported already)
	spaceFailed bool
	paramNames  []string // known when namesKnown: space: was a mapping
	namesKnown  bool
}

// validate is Validate for a file described by f.
func (s *Study) validate(f fileInfo) []error {
	var errs []error
	add := func(field, format string, args ...any) {
		if !f.failed[field] {
			errs = append(errs, &fieldError{line: f.lines[field], field: field, msg: fmt.Sprintf(format, args...)})
		}
	}
	switch {
	case strings.TrimSpace(s.Name) == "":
		add("name", "a study needs a name")
	case len(s.Name) > 128 || strings.ContainsAny(s.Name, "/\\\x00\n"):
		add("name", "%q must be at most 128 characters without slashes or newlines", s.Name)
	}
	switch strings.ToLower(s.Direction) {
	case "", "minimize", "minimise", "maximize", "maximise":
	default:
		add("direction", "must be minimize or maximize, got %q", s.Direction)
	}
	if _, err := transform.Parse(s.Transform); err != nil {
		add("transform", "%v", err)
	}
	if len(s.Directions) > 0 && !f.failed["directions"] {
		s.validateDirections(add)
	}
	if s.Pruner != nil {
		if _, err := s.Pruner.Build(); err != nil {
			add("pruner", "%v", err)
		}
	}
	if !f.failed["constraints"] {
		s.validateConstraints(add)
	}
	if s.Trials < 0 {
		add("trials", "must be 0 (no limit) or more, got %d", s.Trials)
	}
	if s.Workers < 0 {
		add("workers", "must be 1 or more, got %d", s.Workers)
	}
	validSpace := s.Space != nil && s.Space.Len() > 0
	if !validSpace && !f.spaceFailed {
		add("space", "a study needs at least one parameter")
	}
	var sp *space.Space
	if validSpace {
		sp = s.Space
	}
	if err := sampler.CheckWith(s.SamplerName(), s.Sampler.Options, sp); err != nil {
		add("sampler", "%v", err)
	}
	if err := study.CheckFidelity(s.Fidelity.spec(), sp); err != nil && !f.failed["fidelity"] {
		add("fidelity", "%v", err)
	}
	if s.Deploy != nil && !f.failed["deploy"] {
		s.validateDeploy(sp, add)
	}
	if o := s.Objective; o != nil {
		switch {
		case len(o.Command) > 0 && o.Function != "":
			add("objective", "give either command or function, not both")
		case len(o.Command) == 0 && o.Function == "":
			add("objective", "needs a command (a list: [program, arg, ...]) or a built-in function")
		case (o.Function == FunctionTinyMLProxy || o.Function == FunctionTinyMLTrain) && s.Deploy == nil:
			add("objective.function", "%s is computed from a deploy block's network; the study has no deploy block", o.Function)
		case o.Function == FunctionTinyMLTrain:
			if err := s.Deploy.trainable(); err != nil {
				add("objective.function", "%v", err)
			}
		case len(o.Command) > 0:
			cmd := o.Command.Runner()
			var err error
			if validSpace {
				err = runner.ValidateSpace(cmd, s.Space, s.Fidelity.names()...)
			} else if f.spaceFailed && f.namesKnown {
				err = runner.Validate(cmd, append(f.paramNames, s.Fidelity.names()...))
			}
			if err != nil {
				add("objective.command", "%v", err)
			}
		}
		if _, err := runner.Env(o.Env); err != nil {
			add("objective.env", "%s", strings.TrimPrefix(err.Error(), "env: "))
		}
	}
	return errs
}
