package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"unicode"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// newProgress returns the per-trial callback that shows progress on w: a
// bar when w is a terminal, else one plain line per trial unless quiet.
// total is the study's budget, done the trials of it finished for good,
// and before the study's trials so far (a resumed run's best starts there).
// A trial that FAILED once ctx is done was interrupted: study.Optimize
// re-queues it, so it is not counted; its re-run is.
func newProgress(ctx context.Context, w io.Writer, total, done int, quiet bool, dir study.Direction, before []study.Trial) func(study.Trial) {
	counts := func(t study.Trial) bool { return t.State != study.Failed || ctx.Err() == nil }
	var mu sync.Mutex
	best, have := 0.0, false
	better := func(t study.Trial) bool {
		if t.State != study.Complete || infeasible(t) {
			return false
		}
		if !have || (dir == study.Minimize && t.Value < best) || (dir == study.Maximize && t.Value > best) {
			best, have = t.Value, true
			return true
		}
		return false
	}
	for _, t := range before {
		better(t)
	}
	if file, ok := w.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		bar := progressbar.NewOptions(total-done,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("trials"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
		)
		return func(t study.Trial) {
			mu.Lock()
			defer mu.Unlock()
			if better(t) {
				bar.Describe(fmt.Sprintf("best %.6g", best))
			}
			if counts(t) {
				_ = bar.Add(1)
			}
		}
	}
	if quiet {
		return nil
	}
	return func(t study.Trial) {
		mu.Lock()
		defer mu.Unlock()
		if counts(t) {
			done++
		}
		better(t)
		detail := fmt.Sprintf("value %-12.6g", t.Value)
		switch {
		case infeasible(t):
			detail += "  " + firstLine(t.Reason)
		case t.State == study.Complete:
		case t.State == study.Pruned:
			detail = fmt.Sprintf("PRUNED at step %d, value %.6g", lastStep(t.Reports), t.Value)
		default:
			detail = fmt.Sprintf("%s: %s", t.State, firstLine(t.Reason))
		}
		bestText := "-"
		if have {
			bestText = fmt.Sprintf("%.6g", best)
		}
		fmt.Fprintf(w, "[%d/%d] trial %d  %s  best %s\n", done, total, t.Number, detail, bestText)
	}
}

// lastStep is the largest step reported, -1 for none.
func lastStep(rs []study.Report) int64 {
	step := int64(-1)
	for _, r := range rs {
		step = max(step, r.Step)
	}
	return step
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// printStudySummary prints the state counts, the best trial and the top
// five trials of a study; in a constrained study the feasible, infeasible
// and failed (not computable) counts, and the best feasible trials.
func printStudySummary(w io.Writer, st *study.Study, trials []study.Trial) {
	counts := map[study.State]int{}
	feasible := 0
	for _, t := range trials {
		counts[t.State]++
		if t.Feasible != nil && *t.Feasible {
			feasible++
		}
	}
	fmt.Fprintf(w, "\nstudy %s (%s, sampler %s): %d trials: %d complete, %d failed, %d pruned, %d running, %d waiting\n",
		st.Name(), st.Direction(), modelLabel(st), len(trials), counts[study.Complete], counts[study.Failed],
		counts[study.Pruned], counts[study.Running], counts[study.Waiting])
	if c := st.Constraints(); len(c) > 0 {
		fmt.Fprintf(w, "constraints %s: %d feasible, %d infeasible, %d failed (not computable)\n",
			c, feasible, counts[study.Complete]-feasible, counts[study.Failed])
	}
	done := slices.DeleteFunc(slices.Clone(trials), func(t study.Trial) bool { return t.State != study.Complete || infeasible(t) })
	switch {
	case len(done) == 0 && counts[study.Complete] > 0:
		fmt.Fprintf(w, "no feasible trial yet: %d complete, all infeasible\n", counts[study.Complete])
		return
	case len(done) == 0:
		fmt.Fprintln(w, "no trial completed")
		return
	}
	slices.SortStableFunc(done, func(a, b study.Trial) int {
		if st.Direction() == study.Maximize {
			a, b = b, a
		}
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	label := "best"
	if len(st.Constraints()) > 0 {
		label = "best feasible"
	}
	fmt.Fprintf(w, "%s: trial %d, value %.6g\n\n", label, done[0].Number, done[0].Value)
	printTrialTable(w, st.Space(), done[:min(5, len(done))], false)
}

// printTrialTable prints trials as an aligned table, one column per
// parameter and per metric, and with withWorker the worker that ran each
// (host:pid for boa run, the worker's name through the HTTP API) last.
// Trials judged against constraints get a FEASIBLE column (yes, no, or -
// for a trial not judged).
func printTrialTable(w io.Writer, sp *space.Space, trials []study.Trial, withWorker bool) {
	judged := slices.ContainsFunc(trials, func(t study.Trial) bool { return t.Feasible != nil })
	var metrics []string
	for _, t := range trials {
		for k := range t.Metrics {
			if !slices.Contains(metrics, k) {
				metrics = append(metrics, k)
			}
		}
	}
	slices.Sort(metrics)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"TRIAL", "STATE", "VALUE"}
	if judged {
		head = append(head, "FEASIBLE")
	}
	head = append(head, sp.Names()...)
	for _, m := range metrics {
		// A metric named like a parameter (or a column of the table)
		// would have its header twice, without saying which is which.
		if slices.Contains(head, m) || m == "WORKER" {
			m = "metric:" + m
		}
		head = append(head, m)
	}
	if withWorker {
		head = append(head, "WORKER")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, t := range trials {
		row := []string{fmt.Sprint(t.Number), t.State.String(), valueText(t)}
		if judged {
			row = append(row, feasibleText(t))
		}
		for _, name := range sp.Names() {
			row = append(row, cellText(t.Params, name))
		}
		for _, m := range metrics {
			row = append(row, cellText(t.Metrics, m))
		}
		if withWorker {
			row = append(row, cmp.Or(t.Worker, "-"))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// infeasible reports whether t was judged infeasible.
func infeasible(t study.Trial) bool { return t.Feasible != nil && !*t.Feasible }

func feasibleText(t study.Trial) string {
	switch {
	case t.Feasible == nil:
		return "-"
	case *t.Feasible:
		return "yes"
	}
	return "no"
}

// metricCheck warns once on w when none of the first completed trials of
// a constrained study reported a constrained metric: every trial is then
// infeasible, most often for a typo in constraints: or in the command's
// BOA_METRIC line, which is best seen early.
func metricCheck(w io.Writer, cons constraint.Set, first int) func(study.Trial) {
	n, seen, reported := 0, map[string]bool{}, map[string]bool{}
	return func(t study.Trial) {
		if n >= first || t.State != study.Complete {
			return
		}
		n++
		missing := strings.Split(strings.TrimPrefix(t.Reason, "infeasible: "), "; ")
		for _, name := range cons.Names() {
			if !slices.Contains(missing, name+" not reported") {
				seen[name] = true
			}
		}
		for k := range t.Metrics {
			reported[k] = true
		}
		if n < first {
			return
		}
		var never []string
		for _, name := range cons.Names() {
			if !seen[name] {
				never = append(never, name)
			}
		}
		if len(never) > 0 {
			others := "none"
			if len(reported) > 0 {
				others = strings.Join(slices.Sorted(maps.Keys(reported)), ", ")
			}
			fmt.Fprintf(w, "boa: warning: none of the first %d completed trials reported %s, so every one is infeasible; "+
				"check the name in constraints: against the command's BOA_METRIC lines (the trials reported: %s)\n",
				n, strings.Join(never, ", "), others)
		}
	}
}

// cellText is m[key] as the tables print it, or "-" when absent.
func cellText[V any](m map[string]V, key string) string {
	v, ok := m[key]
	if !ok {
		return "-"
	}
	return paramText(v)
}

func valueText(t study.Trial) string {
	if t.State != study.Complete && t.State != study.Pruned {
		return "-"
	}
	return fmt.Sprintf("%.6g", t.Value)
}

// paramText is a parameter or metric value as the tables and boa best
// print it: a float to 6 digits, and a string quoted when it would not
// read as itself there (empty, a space at an end, or a newline, tab or
// other unprintable character, which split the table's row).
func paramText(v any) string {
	switch v := v.(type) {
	case float64:
		if !math.IsInf(v, 0) {
			return fmt.Sprintf("%.6g", v)
		}
	case string:
		if v == "" || strings.TrimSpace(v) != v || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsPrint(r) }) {
			return strconv.Quote(v)
		}
	}
	return space.Format(v)
}
