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
	"time"
	"unicode"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/runner"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// newProgress returns the per-trial callback that shows progress on w: a
// bar when w is a terminal, else one plain line per trial unless quiet.
// total is the study's budget, done the trials of it finished for good,
// and before the study's trials so far (a resumed run's best, failed and
// pruned counts start there). A trial that FAILED once ctx is done was
// interrupted: study.Optimize re-queues it, so it is not counted; its
// re-run is.
func newProgress(ctx context.Context, w io.Writer, total, done int, quiet bool, dir study.Direction, before []study.Trial) func(study.Trial) {
	p := newTally(ctx, dir, before)
	if file, ok := w.(*os.File); ok && term.IsTerminal(int(file.Fd())) {
		if total == 0 {
			return p.bar(w, -1) // no budget: a spinner
		}
		return p.bar(w, total-done)
	}
	if quiet {
		return nil
	}
	return p.plain(w, total, done)
}

// tally is what the progress display counts: the best feasible value and
// the lasting failures and pruned trials of the study.
type tally struct {
	ctx            context.Context
	mu             sync.Mutex
	dir            study.Direction
	best           float64
	have           bool
	failed, pruned int
	failedNumbers  map[int]bool // counted failures, until a re-run shows them interrupted or lost
}

func newTally(ctx context.Context, dir study.Direction, before []study.Trial) *tally {
	p := &tally{ctx: ctx, dir: dir, failedNumbers: map[int]bool{}}
	for _, t := range before {
		p.record(t)
	}
	return p
}

// counts is whether t takes a place in the budget: not a trial that
// FAILED because this run was interrupted (it is re-queued).
func (p *tally) counts(t study.Trial) bool { return t.State != study.Failed || p.ctx.Err() == nil }

// record counts t and reports whether it is a new best. A re-run (RetryOf)
// shows that the trial it re-runs was interrupted or lost rather than
// failed by the objective: that one is no longer counted as failed.
func (p *tally) record(t study.Trial) (better bool) {
	if t.RetryOf >= 0 && p.failedNumbers[t.RetryOf] {
		delete(p.failedNumbers, t.RetryOf)
		p.failed--
	}
	switch {
	case t.State == study.Failed && p.counts(t):
		p.failed++
		p.failedNumbers[t.Number] = true
	case t.State == study.Pruned:
		p.pruned++
	}
	if t.State != study.Complete || infeasible(t) {
		return false
	}
	if !p.have || (p.dir == study.Minimize && t.Value < p.best) || (p.dir == study.Maximize && t.Value > p.best) {
		p.best, p.have = t.Value, true
		return true
	}
	return false
}

// issues is " · 2 failed · 1 pruned", or "" when there are none.
func (p *tally) issues(sep string) string {
	var parts []string
	if p.failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", p.failed))
	}
	if p.pruned > 0 {
		parts = append(parts, fmt.Sprintf("%d pruned", p.pruned))
	}
	if len(parts) == 0 {
		return ""
	}
	return sep + strings.Join(parts, sep)
}

// bar shows a progress bar of n trials on the terminal w, described by the
// best value and the failed and pruned counts; each failure's reason is
// printed above the bar, where it stays once the bar moves on.
func (p *tally) bar(w io.Writer, n int) func(study.Trial) {
	describe := func() string {
		d := "trials"
		if p.have {
			d = fmt.Sprintf("best %.6g", p.best)
		}
		return d + p.issues(" · ")
	}
	bar := progressbar.NewOptions(n,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(describe()),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	return func(t study.Trial) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.record(t)
		if t.State == study.Failed && p.counts(t) {
			_ = bar.Clear()
			fmt.Fprintf(w, "trial %d FAILED: %s\n", t.Number, firstLine(t.Reason))
		}
		bar.Describe(describe())
		if p.counts(t) {
			_ = bar.Add(1)
		} else {
			_ = bar.RenderBlank()
		}
	}
}

// plain prints one line per trial: its result (a failure's reason on its
// line), the best so far and, once there are any, the failed and pruned
// counts.
func (p *tally) plain(w io.Writer, total, done int) func(study.Trial) {
	return func(t study.Trial) {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.counts(t) {
			done++
		}
		p.record(t)
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
		if p.have {
			bestText = fmt.Sprintf("%.6g", p.best)
		}
		issues := ""
		if s := p.issues(", "); s != "" {
			issues = "  (" + strings.TrimPrefix(s, ", ") + ")"
		}
		count := fmt.Sprintf("[%d/%d]", done, total)
		if total == 0 {
			count = fmt.Sprintf("[%d]", done) // no budget
		}
		fmt.Fprintf(w, "%s trial %d  %s  best %s%s\n", count, t.Number, detail, bestText, issues)
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

// firstLine is the first line of a trial's reason, as it may be printed
// to a terminal: escaped (runner.Printable). The runner escapes the output
// it puts in a reason, but a worker or client of the HTTP API sends its
// own, and a database written by an older boa holds raw ones.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return runner.Printable(s)
}

// printStudySummary prints the state counts, the best trial and the top
// five trials of a study; in a constrained study the feasible, infeasible
// and failed (not computable) counts, and the best feasible trials.
func printStudySummary(ctx context.Context, w io.Writer, st *study.Study, trials []study.Trial) {
	counts := map[study.State]int{}
	feasible := 0
	for _, t := range trials {
		counts[t.State]++
		if t.Feasible != nil && *t.Feasible {
			feasible++
		}
	}
	fmt.Fprintf(w, "\nstudy %s (%s, sampler %s): %d trials: %d complete, %d failed, %d pruned, %d running, %d waiting\n",
		st.Name(), senseText(st), modelLabel(st), len(trials), counts[study.Complete], counts[study.Failed],
		counts[study.Pruned], counts[study.Running], counts[study.Waiting])
	if c := st.Constraints(); len(c) > 0 {
		fmt.Fprintf(w, "constraints %s: %d feasible, %d infeasible, %d failed (not computable)\n",
			c, feasible, counts[study.Complete]-feasible, counts[study.Failed])
	}
	if n := lastingFailures(trials); n > 0 {
		fmt.Fprintf(w, "%d trials failed: boa trials %s lists them with their reasons\n", n, st.Name())
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
	if st.MultiObjective() {
		front, err := st.Front(ctx)
		if err != nil {
			fmt.Fprintf(w, "the Pareto front could not be read: %v\n", err)
			return
		}
		fmt.Fprintf(w, "Pareto front: %d trials, values %s (boa best %s lists them all)\n\n", len(front), strings.Join(st.ObjectiveNames(), ", "), st.Name())
		printTrialTable(w, st.Space(), front[:min(10, len(front))], false)
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

// senseText is the study's sense as its header shows it: "minimize", or
// "accuracy (maximize), latency (minimize)" for several objectives.
func senseText(st *study.Study) string {
	if !st.MultiObjective() {
		return st.Direction().String()
	}
	var parts []string
	for _, o := range st.Objectives() {
		parts = append(parts, fmt.Sprintf("%s (%s)", o.Name, o.Direction))
	}
	return strings.Join(parts, ", ")
}

// lastingFailures counts the FAILED trials that were not re-run: failed by
// the objective, not interrupted or lost (those are re-queued).
func lastingFailures(trials []study.Trial) int {
	retried := map[int]bool{}
	for _, t := range trials {
		if t.RetryOf >= 0 {
			retried[t.RetryOf] = true
		}
	}
	n := 0
	for _, t := range trials {
		if t.State == study.Failed && !retried[t.Number] {
			n++
		}
	}
	return n
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
	if slices.ContainsFunc(trials, func(t study.Trial) bool { return t.Values != nil }) {
		head[2] = "VALUES" // a multi-objective study's, in its objectives' order
	}
	if judged {
		head = append(head, "FEASIBLE")
	}
	head = append(head, sp.Names()...)
	for _, m := range metrics {
		// A metric named like a parameter (or a column of the table)
		// would have its header twice, without saying which is which.
		if slices.Contains(head, m) || m == "DURATION" || m == "WORKER" {
			m = "metric:" + m
		}
		head = append(head, m)
	}
	if withWorker {
		head = append(head, "DURATION", "WORKER")
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
			row = append(row, durationText(t), cmp.Or(proc.Short(t.Worker), "-"))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// durationText is how long t ran, from its start to its finish, rounded
// to what a person compares (850ms, 12.3s, 4m5s, 2h3m): "-" until it has
// finished, and for a trial cancelled before it started.
func durationText(t study.Trial) string {
	if t.Started.IsZero() || t.Finished.IsZero() {
		return "-"
	}
	d := max(t.Finished.Sub(t.Started), 0)
	switch {
	case d < time.Second:
		d = d.Round(time.Millisecond)
	case d < time.Minute:
		d = d.Round(100 * time.Millisecond)
	case d < time.Hour:
		d = d.Round(time.Second)
	default:
		d = d.Round(time.Minute)
	}
	s := d.String() // 2h3m0s
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
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
	if t.Values != nil {
		parts := make([]string, len(t.Values))
		for i, v := range t.Values {
			parts[i] = fmt.Sprintf("%.6g", v)
		}
		return strings.Join(parts, " ")
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
