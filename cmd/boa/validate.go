package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

func validateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE",
		Short: "Check a study file without running it",
		Long: `Check a study file as boa run does before its first trial, without
running anything or opening the storage: the file parses and every field
is valid, the objective's program is found and executable (a relative
path such as ./train.sh from the objective's dir, else from here, as boa
run runs it), the sampler takes the space. Then print the study, the
sampler (and for auto what it picks for this space) and one line per
parameter. The errors are boa run's, word for word; it exits 0 when there
are none.

A file without an objective is valid (boa serve and boa worker run such
a study); it is noted, since boa run needs one.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return fmt.Errorf("validate takes one study file, got %d arguments (usage: %s)", len(args), cmd.UseLine())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			cfg, err := config.Load(path)
			if err != nil {
				return err
			}
			_, st, err := runChecks(cmd.Context(), path, cfg, true, io.Discard)
			if err != nil {
				return err
			}
			printValidated(cmd.OutOrStdout(), path, cfg, st)
			return nil
		},
	}
}

// printValidated is boa validate's report of a valid file.
func printValidated(w io.Writer, path string, cfg *config.Study, st *study.Study) {
	fmt.Fprintf(w, "%s: ok\n", path)
	budget := fmt.Sprintf("%d trials", cfg.Trials)
	if cfg.Trials <= 0 {
		budget = "no budget (boa run runs it until stopped)"
	}
	workers := fmt.Sprintf("%d workers", max(1, cfg.Workers))
	if workers == "1 workers" {
		workers = "1 worker"
	}
	fmt.Fprintf(w, "study      %s, %s, %s, %s, seed %d\n", st.Name(), senseText(st), budget, workers, st.Seed())
	fmt.Fprintf(w, "sampler    %s\n", modelLabel(st))
	if c := st.Constraints(); len(c) > 0 {
		fmt.Fprintf(w, "constraints %s\n", c)
	}
	if f := st.Fidelity(); f != nil {
		fmt.Fprintf(w, "fidelity   %s from %d to %d: the command gets {%s} = %d\n", f.Name, f.Min, f.Max, f.Name, f.Max)
	}
	switch o := cfg.Objective; {
	case o == nil:
		fmt.Fprintln(w, "objective  none: a study for boa serve and boa worker (boa run needs a command)")
	case o.Function != "":
		fmt.Fprintf(w, "objective  built-in function %s\n", o.Function)
	default:
		// The runner's argv, not the file's list: that one may group
		// arguments, and this is what boa run runs.
		cmd, _ := o.RunnerCommand()
		fmt.Fprintf(w, "objective  %s%s\n", strings.Join(cmd.Args, " "), programPath(cmd.Args))
	}
	url := cfg.StorageURL()
	if env := os.Getenv("BOA_STORAGE"); env != "" && cfg.Storage == "" {
		url = env
	}
	fmt.Fprintf(w, "storage    %s\n", storage.Redact(url))
	fmt.Fprintf(w, "space      %d parameters\n", st.Space().Len())
	for _, p := range st.Space().Params() {
		fmt.Fprintf(w, "  %s\n", p)
	}
}

// programPath is " (PATH)", where the program found on $PATH is, or ""
// when its name already says (a path, or a {placeholder}).
func programPath(args []string) string {
	if len(args) == 0 || strings.ContainsAny(args[0], "/{") {
		return ""
	}
	p, err := exec.LookPath(args[0])
	if err != nil {
		return ""
	}
	return " (" + p + ")"
}
