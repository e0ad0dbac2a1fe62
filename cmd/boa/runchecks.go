package main

import (
	"context"
	"fmt"
	"io"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// runChecks is everything boa run checks of a study file before it
// opens the storage, shared with boa validate (dryRun) so that both say
// the same: an objective (which a dry run only notes the absence of: a
// study without one is for boa serve and boa worker), the command,
// and the study as created, here in a memory storage, which is returned.
// Without the last, a sampler refusing the space or its options would
// show only after boa run had created the database.
func runChecks(ctx context.Context, path string, cfg *config.Study, dryRun bool, stderr io.Writer) (func(*study.Study) study.Objective, *study.Study, error) {
	var objective func(*study.Study) study.Objective
	switch {
	case cfg.Objective == nil && !dryRun:
		return nil, nil, fmt.Errorf("%s: objective: boa run needs an objective (a command); a study without one is run by boa worker", path)
	case cfg.Objective == nil:
	case cfg.Objective.Function == "" && dryRun:
		if _, err := objectiveCommand(cfg.Objective, true); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
	default:
		var err error
		if objective, err = fileObjective(cfg, stderr); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	st, err := openStudy(ctx, storage.NewMemory(), cfg, false, "memory:")
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return objective, st, nil
}

// objectiveCommand is the objective's command, checked as boa run checks
// it before the first trial (the program is found and executable, the
// working directory exists, ...). A dry run (boa validate) leaves out the
// logs directory, which the check would create.
func objectiveCommand(o *config.Objective, dryRun bool) (runner.Command, error) {
	cmd, err := o.RunnerCommand()
	if err != nil {
		return cmd, err
	}
	check := cmd
	if dryRun {
		check.LogDir = ""
	}
	if err := check.Check(); err != nil {
		return cmd, fmt.Errorf("objective: %w", err)
	}
	return cmd, nil
}
