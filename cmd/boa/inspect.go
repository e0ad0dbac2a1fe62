package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/config"
	"github.com/boaopt/boa/export"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// storageFlag adds --storage, which is $BOA_STORAGE when not given, else
// the embedded SQLite file. The variable is read after parsing, not made
// the flag's default, so that --help does not print a URL's password; it
// also keeps the password out of the process list, where any user of the
// machine can read a command's arguments.
func storageFlag(cmd *cobra.Command, url *string) {
	// The default shown is the one used: $BOA_STORAGE comes first. Not
	// memory:, always empty for a command that only reads (openToRead);
	// boa serve adds it.
	cmd.Flags().StringVar(url, "storage", config.DefaultStorage, "storage URL: sqlite:PATH or postgres://... (default $BOA_STORAGE, else "+config.DefaultStorage+")")
	cmd.Flags().Lookup("storage").DefValue = ""
	cmd.PreRun = func(cmd *cobra.Command, _ []string) {
		if env := os.Getenv("BOA_STORAGE"); env != "" && !cmd.Flags().Changed("storage") {
			*url = env
		}
	}
}

// openToRead opens the storage of the commands that only read it
// (studies, trials, best, export, motifs, dashboard) read-only: they never
// migrate or write it, so they work on a database file that is chmod 0444,
// on a read-only medium or another user's, and leave it byte for byte
// unchanged. An SQLite file that does not exist is an error rather than a
// new empty database: a mistyped path, or boa started in another directory
// than the study's, would otherwise show no studies and leave a stray file
// behind. memory: (always empty here) is opened as it is.
func openToRead(ctx context.Context, url string) (storage.Storage, error) {
	if err := sqliteExists(url); err != nil {
		return nil, err
	}
	if url == "memory:" || url == "memory" {
		return storage.Open(ctx, url)
	}
	return storage.OpenReadOnly(ctx, url)
}

// sqliteExists checks that the file of an sqlite: URL exists.
func sqliteExists(url string) error {
	if path := storage.SQLitePath(url); path != "" {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("storage %s: the file %s does not exist (boa run creates it): run boa in the directory of the study, or point --storage or BOA_STORAGE at its file", url, path)
		}
	}
	return nil
}

// withStudy opens the storage read-only and the named study for fn.
func withStudy(ctx context.Context, url, name string, fn func(*study.Study) error) error {
	return withStudyIn(ctx, openToRead, url, name, fn)
}

// withStudyIn is withStudy with the storage opened by open.
func withStudyIn(ctx context.Context, open func(context.Context, string) (storage.Storage, error), url, name string, fn func(*study.Study) error) error {
	store, err := open(ctx, url)
	if err != nil {
		return err
	}
	defer store.Close()
	st, err := openNamed(ctx, store, url, name)
	if err != nil {
		return err
	}
	return fn(st)
}

// openNamed opens the named study of store, whose URL is url; its errors
// name the storage without its password (they end up in CI logs) and, for
// a study not there, the studies that are.
func openNamed(ctx context.Context, store storage.Storage, url, name string) (*study.Study, error) {
	st, err := study.Open(ctx, store, name)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("%w (storage %s; %s)", err, storage.Redact(url), otherStudies(ctx, store, name))
	}
	if err != nil {
		return nil, fmt.Errorf("%w (storage %s)", err, storage.Redact(url))
	}
	return st, nil
}

// otherStudies is the hint for a study name the storage does not hold:
// the names close to it (a typo, another case, the start of a name), or
// that it holds none (boa run used another storage), or where to look.
func otherStudies(ctx context.Context, store storage.Storage, name string) string {
	recs, err := store.ListStudies(ctx)
	if err != nil {
		return "boa studies lists the studies there"
	}
	if len(recs) == 0 {
		return "it holds no study: was it run with another --storage?"
	}
	names := make([]string, len(recs))
	for i, r := range recs {
		names[i] = r.Name
	}
	near := study.Similar(names, name)
	if len(near) == 0 || len(near) > 3 {
		return "boa studies lists the studies there"
	}
	return "did you mean " + strings.Join(near, " or ") + "?"
}

func studiesCmd() *cobra.Command {
	var (
		url    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "studies",
		Short: "List the studies in a storage",
		Long: `List the studies in a storage. --json prints what the HTTP API's
GET /api/v1/studies answers: {"studies": [...]}, one summary per study
(docs/http-api.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			store, err := openToRead(ctx, url)
			if err != nil {
				return err
			}
			defer store.Close()
			if asJSON {
				return printStudiesJSON(ctx, cmd.OutOrStdout(), store)
			}
			recs, err := store.ListStudies(ctx)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "NAME\tDIRECTION\tSAMPLER\tTRIALS\tBUDGET\tBEST\tCREATED")
			// A study this boa cannot read (one made by a newer version
			// with a sampler or parameter kind it does not know, say) is
			// listed with what the storage says and ? for the rest, and
			// the command fails after the table, naming it.
			var unreadable []error
			for _, r := range recs {
				label, trials, best, err := studySummary(ctx, store, r)
				if err != nil {
					label, trials, best = r.Sampler, "?", "?"
					unreadable = append(unreadable, err)
				}
				budget := "-"
				if r.Budget > 0 {
					budget = strconv.Itoa(r.Budget)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Direction, label, trials, budget, best, r.Created.Local().Format(time.DateTime))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return errors.Join(unreadable...)
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the studies as JSON, as GET /api/v1/studies answers")
	return cmd
}

// studySummary is the sampler, the number of trials and the best value
// of a study as boa studies lists them.
func studySummary(ctx context.Context, store storage.Storage, r storage.Study) (label, trials, best string, err error) {
	st, err := study.Open(ctx, store, r.Name)
	if err != nil {
		return "", "", "", err
	}
	all, err := st.Trials(ctx)
	if err != nil {
		return "", "", "", err
	}
	best = "-"
	if b, ok, _ := st.Best(ctx); ok {
		best = fmt.Sprintf("%.6g", b.Value)
	}
	return samplerLabel(st), strconv.Itoa(len(all)), best, nil
}

// studyArg checks the one argument of trials, best and export, a study
// name, and says what is wanted when it is missing (cobra's "accepts 1
// arg(s), received 0" named neither the study nor the usage).
func studyArg(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("%s takes the name of one study, got %d arguments (usage: %s; boa studies lists the studies)", cmd.Name(), len(args), cmd.UseLine())
	}
	return nil
}

func trialsCmd() *cobra.Command {
	var (
		url    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "trials STUDY",
		Short: "List the trials of a study",
		Long: `List the trials of a study: state, value, parameters, metrics, how long
each ran (DURATION, from its start to its finish; - until it finishes)
and its worker. --json prints them as boa export --format json does, in
the form of the HTTP API's GET /api/v1/studies/{name}/trials.`,
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStudy(cmd.Context(), url, args[0], func(st *study.Study) error {
				trials, err := st.Trials(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					return export.JSON(cmd.OutOrStdout(), st.Space(), trials)
				}
				printTrialTable(cmd.OutOrStdout(), st.Space(), trials, true)
				for _, t := range trials {
					switch {
					case t.State == study.Failed:
						fmt.Fprintf(cmd.OutOrStdout(), "trial %d failed: %s\n", t.Number, firstLine(t.Reason))
					case infeasible(t):
						fmt.Fprintf(cmd.OutOrStdout(), "trial %d %s\n", t.Number, runner.Printable(t.Reason))
					}
				}
				return nil
			})
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the trials as JSON, as boa export --format json does")
	return cmd
}

func bestCmd() *cobra.Command {
	var (
		url    string
		asJSON bool
		model  bool
	)
	cmd := &cobra.Command{
		Use:   "best STUDY",
		Short: "Show the best trial of a study, or the Pareto front of a study of several objectives",
		Long: `Show the best trial of a study: the best observed value (in a study
with constraints, the best feasible one). A study of several objectives
has no one best trial: boa best prints its Pareto front, the trials no
other trial beats in every objective, with one value per objective.

With --model, also the configuration the sampler's model believes best,
the minimiser of its posterior mean, and the mean there: on a noisy
objective a better answer than the luckiest observation (gpbo and its
acquisitions).`,
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStudy(cmd.Context(), url, args[0], func(st *study.Study) error {
				if st.MultiObjective() {
					if model {
						return fmt.Errorf("study %s has %d objectives: --model recommends for one objective only", st.Name(), len(st.Objectives()))
					}
					return printFront(cmd.Context(), cmd.OutOrStdout(), st, asJSON)
				}
				best, ok, err := st.Best(cmd.Context())
				if err != nil {
					return err
				}
				if !ok {
					sum, err := st.Summary(cmd.Context())
					if err != nil {
						return err
					}
					if sum.Infeasible > 0 {
						return fmt.Errorf("study %s has %s (boa trials %s shows why)", st.Name(), sum.NoBest(), st.Name())
					}
					return fmt.Errorf("study %s has no completed trial yet", st.Name())
				}
				w := cmd.OutOrStdout()
				var rec study.Recommendation
				if model {
					if rec, err = st.Recommend(cmd.Context()); err != nil {
						return err
					}
				}
				if asJSON && model {
					return json.NewEncoder(w).Encode(map[string]any{"best": export.TrialOf(st.Space(), best),
						"recommendation": map[string]any{"params": st.Space().Export(rec.Params), "predicted": rec.Predicted}})
				}
				if asJSON {
					return json.NewEncoder(w).Encode(export.TrialOf(st.Space(), best))
				}
				label := "best trial"
				if c := st.Constraints(); len(c) > 0 {
					label = "best feasible trial (constraints " + c.String() + ")"
				}
				fmt.Fprintf(w, "study %s, %s %d (%s): value %.6g\n", st.Name(), label, best.Number, st.Direction(), best.Value)
				for _, name := range st.Space().Names() {
					if v, ok := best.Params[name]; ok {
						fmt.Fprintf(w, "  %s = %s\n", name, paramText(v))
					}
				}
				for _, name := range slices.Sorted(maps.Keys(best.Metrics)) {
					fmt.Fprintf(w, "  metric %s = %s\n", name, paramText(best.Metrics[name]))
				}
				if model {
					predicted := "not on the values' scale (the study has a transform)"
					if rec.Predicted != nil {
						predicted = fmt.Sprintf("%.6g", *rec.Predicted)
					}
					fmt.Fprintf(w, "model's recommendation (minimiser of %s's posterior mean): predicted %s\n", st.Sampler().Name(), predicted)
					for _, name := range st.Space().Names() {
						if v, ok := rec.Params[name]; ok {
							fmt.Fprintf(w, "  %s = %s\n", name, paramText(v))
						}
					}
				}
				return nil
			})
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the trial as JSON")
	cmd.Flags().BoolVar(&model, "model", false, "also show the model's recommendation, the minimiser of its posterior mean")
	return cmd
}

func exportCmd() *cobra.Command {
	var url, format, out string
	cmd := &cobra.Command{
		Use:   "export STUDY --format csv|json",
		Short: "Export every trial of a study as CSV or JSON",
		Long: `Export every trial of a study as CSV or JSON, in trial order.

CSV columns: number, state, value (empty unless COMPLETE or PRUNED), one
column per parameter (empty when inactive), metric:NAME for each metric
any trial reported, reason (why a trial failed, first line), batch
(shared by the trials proposed together and kept by a re-run of one;
empty for a trial stored without one, by an older boa) and origin (how
the sampler chose the point: design, model, or user for a queued one;
empty when not recorded: a peer's trial, or one stored by an older boa). A
parameter's column is its name, or param:NAME when the name is one of
number, state, value, reason, batch, origin or starts with metric: or param:,
so that no two columns have the same header. A study of several
objectives has one column per objective, named by it, in place of value
(and a parameter named like an objective is param:NAME).
JSON: one object per trial with the same fields, plus id, reports,
worker, retry_of and the start and finish times, in the form of the HTTP
API's GET /api/v1/studies/{name}/trials (docs/http-api.md).`,
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "csv" && format != "json" {
				return fmt.Errorf("--format must be csv or json, got %q", format)
			}
			return withStudy(cmd.Context(), url, args[0], func(st *study.Study) error {
				trials, err := st.Trials(cmd.Context())
				if err != nil {
					return err
				}
				write := func(w io.Writer) error {
					if format == "json" {
						return export.JSON(w, st.Space(), trials)
					}
					return export.CSV(w, st.Space(), st.ObjectiveNames(), trials)
				}
				if out == "" {
					return write(cmd.OutOrStdout())
				}
				f, err := os.Create(out)
				if err != nil {
					return err
				}
				// A full disk may show only when the file is closed.
				return errors.Join(write(f), f.Close())
			})
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().StringVar(&format, "format", "csv", "csv or json")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

// printFront prints the Pareto front of a multi-objective study st (boa
// best): a table with one value per objective, or a JSON array of its
// trials.
func printFront(ctx context.Context, w io.Writer, st *study.Study, asJSON bool) error {
	front, err := st.Front(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]export.Trial, len(front))
		for i, t := range front {
			out[i] = export.TrialOf(st.Space(), t)
		}
		return json.NewEncoder(w).Encode(out)
	}
	if len(front) == 0 {
		sum, err := st.Summary(ctx)
		if err != nil {
			return err
		}
		return fmt.Errorf("study %s has %s", st.Name(), sum.NoBest())
	}
	label := "Pareto front"
	if c := st.Constraints(); len(c) > 0 {
		label = "Pareto front of the feasible trials (constraints " + c.String() + ")"
	}
	fmt.Fprintf(w, "study %s, %s: %d trials; values: %s\n\n", st.Name(), label, len(front), senseText(st))
	printTrialTable(w, st.Space(), front, false)
	return nil
}
