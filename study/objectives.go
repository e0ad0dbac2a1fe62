package study

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/storage"
)

// Goal is one objective of a study: its name, which a command's
// named result (BOA_RESULT latency=3.2) and boa export's columns use, and
// its sense. A study of two or more objectives is multi-objective
// (issue 43): every COMPLETE trial has a value for each (Trial.Values),
// and the study's answer is its Pareto front (Front), not one best trial.
type Goal struct {
	Name      string
	Direction Direction
}

// DefaultObjective is the name of a study's objective when it has one and
// names none.
const DefaultObjective = "value"

// reservedObjectiveNames are the columns boa export writes beside a
// multi-objective study's objectives, one column each.
var reservedObjectiveNames = []string{"number", "state", "value", "reason", "batch", "origin", "feasible"}

var objectiveName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-]*$`)

// CheckObjectives returns an error saying what is wrong with spec's
// objectives: an unnamed or repeated one, a sampler that models one
// objective in a study of several, a transform there, or a pruner on an
// objective the study does not have; nil when nothing is. Create checks
// the same; a study file's validation asks it first.
func (spec Spec) CheckObjectives() error {
	objs, err := objectivesOf(spec)
	if err == nil {
		spec.Sampler = cmp.Or(spec.Sampler, "auto")
		err = checkMultiObjective(spec, objs, nil)
	}
	return err
}

// objectivesOf returns the objectives of a study spec: spec.Objectives,
// checked, or the one objective spec.Direction describes.
func objectivesOf(spec Spec) ([]Goal, error) {
	if len(spec.Objectives) == 0 {
		return []Goal{{Name: DefaultObjective, Direction: spec.Direction}}, nil
	}
	seen := map[string]bool{}
	out := make([]Goal, len(spec.Objectives))
	for i, o := range spec.Objectives {
		if o.Name == "" && len(spec.Objectives) == 1 {
			o.Name = DefaultObjective
		}
		switch {
		case o.Name == "":
			return nil, fmt.Errorf("objective %d has no name; a study of several objectives names each", i+1)
		case !objectiveName.MatchString(o.Name):
			return nil, fmt.Errorf("objective name %q: want a letter or _ then letters, digits, _, . or - (it names a BOA_RESULT value and an export column)", o.Name)
		case seen[o.Name]:
			return nil, fmt.Errorf("objective %q is named twice", o.Name)
		case len(spec.Objectives) > 1 && slices.Contains(reservedObjectiveNames, o.Name):
			return nil, fmt.Errorf("objective name %q names a column of boa export's table; choose another (it has the columns %s)", o.Name, strings.Join(reservedObjectiveNames, ", "))
		}
		seen[o.Name] = true
		out[i] = o
	}
	return out, nil
}

// Objectives returns the study's objectives, in the order of
// Trial.Values; one for a single-objective study.
func (s *Study) Objectives() []Goal { return append([]Goal(nil), s.objs...) }

// ObjectiveNames returns the names of the study's objectives, in order.
func (s *Study) ObjectiveNames() []string { return namesOf(s.objs) }

func namesOf(objs []Goal) []string {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.Name
	}
	return names
}

// MultiObjective reports whether the study has two or more objectives.
func (s *Study) MultiObjective() bool { return len(s.objs) > 1 }

// objectiveNames lists the names, for messages: "accuracy, latency".
func objectiveNames(objs []Goal) string {
	return strings.Join(namesOf(objs), ", ")
}

// values checks r's values against the study's objectives: the values
// to store (Values[0] is the Value), or the reason the trial FAILED. A
// single-objective study takes Value, or Values of length one.
func (s *Study) values(r Result) (value float64, values []float64, reason string) {
	vs := r.Values
	if len(vs) == 0 {
		vs = []float64{r.Value}
		if len(s.objs) > 1 {
			return 0, nil, fmt.Sprintf("the objective returned 1 value, but the study has %d objectives (%s): report one value for each, in that order or by name", len(s.objs), objectiveNames(s.objs))
		}
	}
	if len(vs) != len(s.objs) {
		return 0, nil, fmt.Sprintf("the objective returned %d values, but the study has %d objective(s) (%s)", len(vs), len(s.objs), objectiveNames(s.objs))
	}
	for i, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if len(s.objs) == 1 {
				return 0, nil, fmt.Sprintf("objective returned %v", v)
			}
			return 0, nil, fmt.Sprintf("objective %s returned %v", s.objs[i].Name, v)
		}
	}
	if len(s.objs) == 1 {
		return vs[0], nil, ""
	}
	return vs[0], append([]float64(nil), vs...), ""
}

// minimised returns the values of a COMPLETE feasible trial r in the
// minimised sense of each objective of objs; nil for any other trial.
func minimised(objs []Goal, r storage.Trial) []float64 {
	if r.State != Complete || r.Value == nil || (r.Feasible != nil && !*r.Feasible) {
		return nil
	}
	vs := r.Values
	if len(objs) == 1 {
		vs = []float64{*r.Value}
	}
	return inMinimisedSense(objs, vs)
}

// inMinimisedSense returns values vs of the objectives objs, each in
// the minimised sense; nil when they do not match objs in number (a
// trial not stored by this boa's Tell).
func inMinimisedSense(objs []Goal, vs []float64) []float64 {
	if len(vs) != len(objs) {
		return nil
	}
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = v
		if objs[i].Direction == Maximize {
			out[i] = -v
		}
	}
	return out
}

// frontOf returns the indices, in trial order, of the COMPLETE feasible
// trials of recs that no other one dominates in objs [Deb et al. 2002,
// §II]: the Pareto front. Of trials with equal values every one is kept,
// as Optuna's best_trials keeps them.
func frontOf(objs []Goal, recs []storage.Trial) []int {
	var idx []int
	var points [][]float64
	for i, r := range recs {
		if m := minimised(objs, r); m != nil {
			idx = append(idx, i)
			points = append(points, m)
		}
	}
	front := pareto.Front(points)
	out := make([]int, len(front))
	for i, f := range front {
		out[i] = idx[f]
	}
	return out
}

// bestOf is the index of the best COMPLETE feasible trial of recs, the
// first of equal ones, -1 when there is none: in a multi-objective study
// the trial of the front best in the first objective, so that no trial
// called best is dominated.
func bestOf(objs []Goal, recs []storage.Trial) int {
	b, bv := -1, 0.0
	for _, i := range frontOf(objs, recs) {
		if v := minimised(objs, recs[i])[0]; b < 0 || v < bv {
			b, bv = i, v
		}
	}
	return b
}

// Front returns the Pareto-optimal trials: the COMPLETE trials (in a
// constrained study the feasible ones) that no other such trial
// dominates, in trial order; Optuna's study.best_trials. In a
// single-objective study it is the trials of the best value. PRUNED
// trials do not count, as for Best.
func (s *Study) Front(ctx context.Context) ([]Trial, error) {
	recs, err := s.store.TrialsWithoutReports(ctx, s.rec.ID)
	if err != nil {
		return nil, s.errorf("load trials: %w", err)
	}
	front := frontOf(s.objs, recs)
	out := make([]Trial, len(front))
	for i, f := range front {
		if out[i], err = fromRecord(s.space, recs[f]); err != nil {
			return nil, s.errorf("%w", err)
		}
	}
	return out, nil
}
