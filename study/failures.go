package study

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// ErrAllFailed is wrapped by Optimize's error when every trial it ran
// FAILED: most often the objective's fault (a typo, a missing file, a
// misspelt parameter), which a program must not take for a finished
// study. Test with errors.Is; errors.As gives the *AllFailedError.
var ErrAllFailed = errors.New("every trial failed")

// AllFailedError says that every trial of a run failed, and why most of
// them did.
type AllFailedError struct {
	Study  string
	Trials int    // the trials run, every one FAILED
	Reason string // the most common reason (its first line; the earliest of a tie)
	Count  int    // how many trials failed for it
	First  Trial  // the lowest-numbered trial that failed for it (its LogPath shows the output of a command)
}

func (e *AllFailedError) Error() string {
	if e.Trials == 1 {
		return fmt.Sprintf("study %s: its only trial failed: %s", e.Study, e.Reason)
	}
	return fmt.Sprintf("study %s: all %d trials failed; most common reason (%d×): %s", e.Study, e.Trials, e.Count, e.Reason)
}

func (e *AllFailedError) Is(target error) bool { return target == ErrAllFailed }

// trialNumber is a trial named in a reason (a misread parameter's).
var trialNumber = regexp.MustCompile(`\btrial \d+\b`)

// SameFailure is what two failures share when they failed alike: the
// first line of the reason (a command's output after it differs from
// trial to trial), the trial it names aside ("trial 3 has no parameter
// ..." and "trial 4 has no parameter ..." are one mistake).
func SameFailure(reason string) string {
	line, _, _ := strings.Cut(reason, "\n")
	return trialNumber.ReplaceAllString(line, "trial #")
}

// AllFailed returns an *AllFailedError for trials when there are some
// and every one is FAILED, nil otherwise. Reasons are grouped by their
// SameFailure; Reason is that of the group's lowest-numbered trial.
func AllFailed(study string, trials []Trial) error {
	if len(trials) == 0 {
		return nil
	}
	count := map[string]int{}
	first := map[string]Trial{}
	var order []string
	// By number: the first of a group is the lowest-numbered, whatever
	// order parallel workers finished them in.
	trials = slices.Clone(trials)
	slices.SortStableFunc(trials, func(a, b Trial) int { return cmp.Compare(a.Number, b.Number) })
	for _, t := range trials {
		if t.State != Failed {
			return nil
		}
		r := SameFailure(t.Reason)
		if count[r] == 0 {
			order = append(order, r)
			first[r] = t
		}
		count[r]++
	}
	e := &AllFailedError{Study: study, Trials: len(trials)}
	for _, r := range order {
		if count[r] > e.Count {
			e.Count, e.First = count[r], first[r]
			e.Reason, _, _ = strings.Cut(e.First.Reason, "\n")
		}
	}
	return e
}
