package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

func enqueueCmd() *cobra.Command {
	var (
		url    string
		params []string
		file   string
	)
	cmd := &cobra.Command{
		Use:   "enqueue STUDY (--param NAME=VALUE ... | --file FILE)",
		Short: "Queue your own configurations as trials of a study",
		Long: `Queue configurations you choose (a known good default, last year's best)
as WAITING trials of a study: the next boa run --resume, boa worker or ask
runs them before any new suggestion, and the sampler learns from their
results like any other's. They count against the study's budget.

--param NAME=VALUE, once per parameter, gives one configuration; each
value is read as its parameter's type (a number for float, int and
ordinal, a choice for categorical, true or false for bool). Every active
parameter needs a value, and an inactive one (its when does not hold)
must have none.

--file FILE gives many: a YAML list of mappings, or the same as a JSON
array of objects,

  - {lr: 0.01, layers: 2, act: relu}
  - {lr: 0.1, layers: 3, act: tanh}

Every configuration is checked before any is queued. The storage is
--storage, else $BOA_STORAGE, else sqlite:boa.db. Prints the number of
each queued trial.`,
		Example: "  boa enqueue svm-digits --param C=1 --param kernel=rbf\n" +
			"  boa enqueue svm-digits --file defaults.yaml",
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			var points []map[string]any
			switch {
			case len(params) > 0 && file != "":
				return errors.New("give --param or --file, not both")
			case file != "":
				var err error
				if points, err = config.LoadPoints(file); err != nil {
					return err
				}
			case len(params) > 0:
				points = []map[string]any{nil} // parsed once the space is known
			default:
				return errors.New("give the configuration to queue: --param NAME=VALUE for each parameter, or --file FILE with a list of them")
			}
			return enqueue(cmd.Context(), url, args[0], params, points, cmd.OutOrStdout())
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().StringArrayVarP(&params, "param", "p", nil, "NAME=VALUE: a parameter's value (repeat for each parameter)")
	cmd.Flags().StringVarP(&file, "file", "f", "", "a YAML or JSON list of configurations to queue")
	return cmd
}

// enqueue queues points, or the one configuration of params when points
// is [nil], as trials of the study.
func enqueue(ctx context.Context, url, name string, params []string, points []map[string]any, out io.Writer) error {
	return withStudyIn(ctx, openToWrite, url, name, func(st *study.Study) error {
		return enqueueIn(ctx, st, params, points, out)
	})
}

func enqueueIn(ctx context.Context, st *study.Study, params []string, points []map[string]any, out io.Writer) error {
	sp := st.Space()
	var err error
	if points[0] == nil {
		a, err := parseParams(sp, params)
		if err != nil {
			return err
		}
		points[0] = a
	}
	// All are checked first, so that a mistake in the tenth does not leave
	// nine queued.
	canon := make([]space.Assignment, len(points))
	for i, p := range points {
		if canon[i], err = sp.Canonical(p); err != nil {
			if len(points) > 1 {
				return fmt.Errorf("configuration %d: %w", i+1, err)
			}
			return err
		}
	}
	for i, a := range canon {
		t, err := st.Enqueue(ctx, a)
		if errors.Is(err, study.ErrBudget) {
			return fmt.Errorf("study %s has used its budget of %d trials: %d of the %d configurations were queued (raise the budget: boa run FILE --resume --trials N)", st.Name(), st.Budget(), i, len(canon))
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "queued trial %d: %s\n", t.Number, assignmentText(sp, a))
	}
	return nil
}

// parseParams reads --param NAME=VALUE flags as values of sp's parameters.
func parseParams(sp *space.Space, params []string) (space.Assignment, error) {
	a := space.Assignment{}
	var errs []error
	for _, kv := range params {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			errs = append(errs, fmt.Errorf("--param %q: want NAME=VALUE; the parameters are %s", kv, strings.Join(sp.Names(), ", ")))
			continue
		}
		k = strings.TrimSpace(k)
		if _, dup := a[k]; dup {
			errs = append(errs, fmt.Errorf("--param %s: given twice", k))
			continue
		}
		x, err := sp.Parse(k, v)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		a[k] = x
	}
	return a, errors.Join(errs...)
}

// assignmentText is "x=0.5 kernel=rbf" in the space's order.
func assignmentText(sp *space.Space, a space.Assignment) string {
	var b strings.Builder
	for _, n := range sp.Names() {
		if v, ok := a[n]; ok {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(n + "=" + space.Format(v))
		}
	}
	return b.String()
}
