package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/boaopt/boa/internal/proc"
	"github.com/boaopt/boa/study"
)

// stillRunning tells about the trials a finished run leaves RUNNING:
// this run's own trials have all ended, and those of a process provably
// gone were re-run (study's reap), so these are held by a live process
// (a concurrent boa run --resume) or by one boa cannot check from here
// (another host or container), whose heartbeats, if it died, stop and
// its lease runs out at h.Until. With --resume that is an error: the
// study is not done, and a script must not take it for done; a fresh
// run's study was joined by another process, which finishes it.
func stillRunning(ctx context.Context, st *study.Study, path string, resume bool, stderr io.Writer) error {
	h, err := st.Running(ctx)
	if err != nil || len(h.Trials) == 0 {
		return err
	}
	msg := heldMessage(h, path, time.Now())
	if resume {
		return fmt.Errorf("%s", msg)
	}
	fmt.Fprintf(stderr, "boa: %s\n", msg)
	return nil
}

// heldMessage says which trials are held, by whom, and when they are
// recovered if their process has died.
func heldMessage(h study.Held, path string, now time.Time) string {
	var who []string
	for _, w := range h.Workers {
		switch proc.Of(w) {
		case proc.Alive:
			who = append(who, proc.Describe(w)+" (running)")
		default:
			who = append(who, proc.Describe(w))
		}
	}
	when := "now"
	if d := h.Until.Sub(now); d > 0 {
		when = fmt.Sprintf("after %s (in %v)", h.Until.Local().Format("15:04:05 MST"), d.Round(time.Second))
		if h.Until.Local().YearDay() != now.Local().YearDay() {
			when = fmt.Sprintf("after %s (in %v)", h.Until.Local().Format("2006-01-02 15:04:05 MST"), d.Round(time.Second))
		}
	}
	return fmt.Sprintf("%s still RUNNING, held by %s; if that process dies, or has died where boa cannot tell (another host "+
		"or container), boa run %s --resume re-runs them %s, when their lease runs out",
		trialList(h.Trials), strings.Join(who, ", "), path, when)
}

// trialList is "trial 3" or "2 trials (3, 4)", at most 10 numbers shown.
func trialList(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("trial %d is", ns[0])
	}
	s := make([]string, 0, len(ns))
	for i, n := range ns {
		if i == 10 {
			s = append(s, "…")
			break
		}
		s = append(s, fmt.Sprint(n))
	}
	return fmt.Sprintf("%d trials (%s) are", len(ns), strings.Join(s, ", "))
}
