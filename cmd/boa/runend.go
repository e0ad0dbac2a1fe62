package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/boaopt/boa/study"
)

// interruptedError is boa run's error after Ctrl-C or SIGTERM. err is
// Optimize's: the cancellation, joined with the errors of the results the
// storage would not record then, whose trials stay RUNNING until reaped.
func interruptedError(err error, path string, lease time.Duration) error {
	if u := unrecorded(err); len(u) > 0 {
		return fmt.Errorf("interrupted: %w; those trials stay RUNNING and are re-run by boa run %s --resume once their lease (%v) has passed",
			errors.Join(u...), path, lease)
	}
	return fmt.Errorf("interrupted: running trials were recorded as FAILED and re-queued; continue with: boa run %s --resume", path)
}

// unrecorded is the errors of the results the storage would not record
// after an interruption (Optimize joins them to the cancellation).
func unrecorded(err error) []error {
	var out []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !errors.Is(e, context.Canceled) {
				out = append(out, e)
			}
		}
	}
	return out
}

// remaining is the number of trials the study still wants, 0 when it
// cannot be read.
func remaining(ctx context.Context, st *study.Study) int {
	n, _ := st.Remaining(context.WithoutCancel(ctx))
	return n
}

func budgetText(n int) string {
	if n == 0 {
		return "no budget"
	}
	return fmt.Sprintf("%d trials", n)
}

// failFastAfter is how many trials failing alike stop a run (failFast).
const failFastAfter = 3

// failFast stops a run whose first k trials all fail for the same reason
// (a missing file, a syntax error, a typo in the command) instead of
// spending the budget on it: once a trial of the study has completed, or
// two reasons differ, it never stops. before is the study's trials when
// the run began.
func failFast(k int, before []study.Trial) func(study.Trial) error {
	armed := !slices.ContainsFunc(before, func(t study.Trial) bool { return t.State == study.Complete })
	var failed []study.Trial
	return func(t study.Trial) error {
		if !armed {
			return nil
		}
		if t.State != study.Failed || (len(failed) > 0 && study.SameFailure(t.Reason) != study.SameFailure(failed[0].Reason)) {
			armed = false
			return nil
		}
		if failed = append(failed, t); len(failed) < k {
			return nil
		}
		f := failed[0]
		return fmt.Errorf("the first %d trials all failed alike; trial %d: %s%s; stopped early (--keep-going runs the whole budget)",
			k, f.Number, firstLine(f.Reason), logHint(f))
	}
}

// logHint says where a trial's output is, or "".
func logHint(t study.Trial) string {
	if t.LogPath == "" {
		return ""
	}
	return " (its output: " + strings.TrimSuffix(t.LogPath, ".out") + ".{out,err})"
}
