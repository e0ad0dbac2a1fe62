package study

import (
	"fmt"
	"slices"

	"github.com/boaopt/boa/pruner"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/space"
)

// Fidelity is a study's fidelity (sampler.Fidelity): what its trials'
// reports count, the command's {name}, and their range.
type Fidelity = sampler.Fidelity

// CheckFidelity refuses a fidelity (nil: none) without a name, named like a
// parameter of sp, or with an empty or negative range.
func CheckFidelity(f *Fidelity, sp *space.Space) error {
	switch {
	case f == nil:
		return nil
	case !objectiveName.MatchString(f.Name):
		return fmt.Errorf("name %q: want a letter or _ then letters, digits, _, . or - (the command's {%s})", f.Name, f.Name)
	case sp != nil && slices.Contains(sp.Names(), f.Name):
		return fmt.Errorf("name %q is a parameter's name too: which would {%s} be?", f.Name, f.Name)
	case f.Min < 0 || f.Max <= f.Min:
		return fmt.Errorf("min %d and max %d: want 0 ≤ min < max (the steps the trials report)", f.Min, f.Max)
	}
	return nil
}

// withFidelity is the pruner p with the resources that Hyperband and
// successive halving leave out taken from the study's fidelity f: the
// smallest step a rung may be at, Min, and the step an unpruned trial
// reaches, Max, which Optuna's pruners would otherwise guess from the
// complete trials' last steps.
func withFidelity(p pruner.Spec, f *Fidelity) pruner.Spec {
	if f == nil {
		return p
	}
	typ := p.Type
	if typ == "asha" {
		typ = "successive_halving"
	}
	if (typ == "hyperband" || typ == "successive_halving") && p.MinResource == nil {
		p.MinResource = new(max(f.Min, 1))
	}
	if typ == "hyperband" && p.MaxResource == nil {
		p.MaxResource = new(f.Max)
	}
	return p
}

// Fidelity returns the study's fidelity, nil when it declares none.
func (s *Study) Fidelity() *Fidelity { return s.fid }
