package study

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/boaopt/boa/pruner"
)

// CheckResume returns nil when spec, read from a study file, still
// describes the stored study s, so that resuming s with it continues the
// same optimisation; otherwise an error saying what differs and what to do.
// The space, direction, transform, pruner and constraints are fixed when
// a study is created: the history, the model's view of it, the pruner's
// decisions and the best trial all depend on them. The sampler and the
// seed may change (a resumed study may be continued by another sampler),
// and so may the budget (SetBudget: run 30, look, run 20 more). where names the
// storage in the message (a URL without its password).
func (s *Study) CheckResume(spec Spec, where string) error {
	stored, _ := json.Marshal(s.Space())
	space, _ := json.Marshal(spec.Space)
	given, err := objectivesOf(spec)
	if err != nil {
		return fmt.Errorf("study %q: %w", s.Name(), err)
	}
	switch {
	case string(stored) != string(space):
		return fmt.Errorf("study %q in %s has another search space than the file; resume it with the file it was created with, or give the study another name", s.Name(), where)
	case len(spec.Objectives) > 0 && !slices.Equal(s.objs, given):
		return fmt.Errorf("study %q in %s has objectives %s, the file says %s; the objectives are fixed when the study is created", s.Name(), where, goals(s.objs), goals(given))
	case len(spec.Objectives) == 0 && (s.Direction() != spec.Direction || len(s.objs) > 1):
		return fmt.Errorf("study %q in %s is %s, the file says %s", s.Name(), where, goals(s.objs), spec.Direction)
	case s.Transform() != spec.Transform:
		return fmt.Errorf("study %q in %s has transform %s, the file says %s; the transform is fixed when the study is created", s.Name(), where, s.Transform(), spec.Transform)
	case s.cons.String() != spec.Constraints.String():
		return fmt.Errorf("study %q in %s has constraints %s, the file says %s; the constraints are fixed when the study is created", s.Name(), where, s.cons, spec.Constraints)
	case !reflect.DeepEqual(s.fid, spec.Fidelity):
		return fmt.Errorf("study %q in %s has fidelity %s, the file says %s; the fidelity is fixed when the study is created", s.Name(), where, fidelityText(s.fid), fidelityText(spec.Fidelity))
	case !samePruner(s.PrunerSpec(), withFidelity(spec.Pruner, spec.Fidelity)):
		return fmt.Errorf("study %q in %s has pruner %s, the file says %s; the pruner is fixed when the study is created", s.Name(), where, s.PrunerSpec(), withFidelity(spec.Pruner, spec.Fidelity))
	}
	return nil
}

// goals writes objectives as a study file has them: "minimize" for one
// unnamed objective, "[accuracy (maximize), latency (minimize)]" for more.
func goals(objs []Goal) string {
	if len(objs) == 1 && objs[0].Name == DefaultObjective {
		return objs[0].Direction.String()
	}
	parts := make([]string, len(objs))
	for i, o := range objs {
		parts[i] = fmt.Sprintf("%s (%s)", o.Name, o.Direction)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func fidelityText(f *Fidelity) string {
	if f == nil {
		return "none"
	}
	return fmt.Sprintf("%s from %d to %d", f.Name, f.Min, f.Max)
}

// samePruner reports whether a and b are the same pruner as written.
func samePruner(a, b pruner.Spec) bool {
	if a.IsNone() || b.IsNone() {
		return a.IsNone() == b.IsNone()
	}
	return reflect.DeepEqual(a, b)
}
