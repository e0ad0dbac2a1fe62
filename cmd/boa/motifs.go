package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/boaopt/boa/sampler/nasbowl"
	"github.com/boaopt/boa/study"
	"github.com/spf13/cobra"
)

func motifsCmd() *cobra.Command {
	var (
		url       string
		minGraphs int
		top       int
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "motifs STUDY",
		Short: "Show which architecture motifs make a NAS study's trials good or bad",
		Long: `Show which motifs (WL features: an operation and what it connects to)
make the architectures of a study good or bad, as NAS-BOWL's model sees
them (Ru et al. 2021; docs/nasbowl.md): the GP on the WL kernel is fitted to
the completed trials, and each motif gets the averaged gradient of the
model's mean with respect to its count (effect) and that gradient divided
by its spread (score). A negative score means the motif makes the
objective better in the study's direction; the most helpful motifs come
first. The study's space must be an architecture cell: an edge_j_i
operation per edge, as NAS-Bench-201's six (docs/nasbowl.md).`,
		Example: "  boa motifs nb201-study --storage sqlite:boa.db --top 10",
		Args:    studyArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if minGraphs < 0 || top < 0 {
				return fmt.Errorf("--min-graphs and --top must be ≥ 0")
			}
			return withStudy(cmd.Context(), url, args[0], func(st *study.Study) error {
				h, err := st.History(cmd.Context())
				if err != nil {
					return err
				}
				if len(h.Observed) < 2 {
					return fmt.Errorf("study %s has %d completed trials; motif scores need at least 2", st.Name(), len(h.Observed))
				}
				ms, err := nasbowl.New().Motifs(h, minGraphs)
				if err != nil {
					return fmt.Errorf("study %s: %w", st.Name(), err)
				}
				found := len(ms)
				shown := ""
				if top > 0 && found > 2*top {
					// The most helpful and the most harmful.
					ms = append(ms[:top:top], ms[found-top:]...)
					shown = fmt.Sprintf("; the %d most helpful and the %d most harmful", top, top)
				}
				w := cmd.OutOrStdout()
				if asJSON {
					return json.NewEncoder(w).Encode(ms)
				}
				fmt.Fprintf(w, "study %s: %d motifs in more than %d of %d completed trials%s (negative score: better)\n",
					st.Name(), found, minGraphs, len(h.Observed), shown)
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "score\teffect\ttrials\tdepth\tmotif")
				for _, m := range ms {
					fmt.Fprintf(tw, "%+.2f\t%+.3g\t%d\t%d\t%s\n", m.Score, m.Effect, m.Graphs, m.Depth, m.Name)
				}
				return tw.Flush()
			})
		},
	}
	storageFlag(cmd, &url)
	cmd.Flags().IntVar(&minGraphs, "min-graphs", 10, "score only motifs found in more than this many completed trials")
	cmd.Flags().IntVar(&top, "top", 10, "show the N most helpful and the N most harmful motifs (0: all)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the motifs as a JSON array")
	return cmd
}
