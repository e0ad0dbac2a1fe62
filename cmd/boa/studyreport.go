package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/report"
	"github.com/boaopt/boa/study"
)

// studyReportCmd is `boa report STUDY --out DIR`: package report's plots
// and report.md of a stored study. (report.go is boa run's progress
// display.)
func studyReportCmd() *cobra.Command {
	var url, out string
	cmd := &cobra.Command{
		Use:   "report STUDY --out DIR",
		Short: "Write a study's plots (PNG) and report.md into a directory",
		Long: "report writes PNG plots of a study's history, parameter importances (fANOVA), empirical\n" +
			"distribution, intermediate values, slices, contour and timeline, and report.md linking\n" +
			"them under a summary. It only reads the storage (docs/report.md).",
		Args: studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStudy(cmd.Context(), url, args[0], func(st *study.Study) error {
				trials, err := st.Trials(cmd.Context())
				if err != nil {
					return err
				}
				s := report.Study{
					Study:   analysis.Study{Space: st.Space(), Direction: st.Direction(), Trials: trials},
					Name:    st.Name(),
					Sampler: modelLabel(st),
					Seed:    st.Seed(),
				}
				if c := st.Constraints(); len(c) > 0 {
					s.Constraints = c.String()
				}
				r, err := report.Write(out, s)
				if err != nil {
					return err
				}
				for _, why := range r.Skipped {
					fmt.Fprintf(cmd.ErrOrStderr(), "not drawn: %s\n", why)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files into %s: %s\n", len(r.Files), out, filepath.Join(out, "report.md"))
				return nil
			})
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().StringVar(&out, "out", "", "directory to write the plots and report.md into (created if needed)")
	_ = cmd.MarkFlagRequired("out")
	return cmd
}
