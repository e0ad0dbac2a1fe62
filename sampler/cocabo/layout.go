package cocabo

import (
	"fmt"

	"github.com/boaopt/boa/sampler/internal/bo"
	"github.com/boaopt/boa/space"
)

// mixedLayout splits a space into CoCaBO's z = [h, x] [000 §5.4; mixed spec
// §1]: the categorical parameters (Categorical and Bool), which the bandits
// choose and the overlap kernel compares by category index, and the others
// (Float, Int, Ordinal), which the Matérn kernel sees as continuous
// coordinates. The GP input keeps the space's parameter order: column i
// holds parameter i, as a 0-based category index for a categorical
// parameter (the contract of kernel.Overlap) or as 2u − 1 ∈ [−1, 1] for the
// others, the scaling of the CoCaBO code [000 §5.5; 002 §5.4], so that the
// Matérn lengthscale defaults of the spec (init 0.2, bounds [1e-4, 3])
// apply unchanged.
type mixedLayout struct {
	sp     *space.Space
	cat    []int // parameter indices of the categorical variables, in order
	levels []int // N_j, the number of choices of cat[j]
	cont   []int // parameter indices of the continuous coordinates
	free   []bool
}

// CheckSpace returns an error for a conditional space (SpaceChecker).
func (c *CoCaBO) CheckSpace(sp *space.Space) error {
	_, err := newLayout(sp)
	return err
}

// newLayout returns the layout of sp, or an error for a conditional space:
// CoCaBO's bandits need every categorical variable present in every trial.
func newLayout(sp *space.Space) (*mixedLayout, error) {
	l := &mixedLayout{sp: sp, free: make([]bool, sp.Len())}
	for i, p := range sp.Params() {
		if sp.Conditional(i) {
			return nil, fmt.Errorf("cocabo: parameter %q is conditional; CoCaBO needs an unconditional space (auto, gpbo, onehot-gp and random take conditional spaces)", p.Name)
		}
		switch p.Kind {
		case space.Categorical, space.Bool:
			l.cat = append(l.cat, i)
			l.levels = append(l.levels, sp.Levels(i))
		default:
			l.cont = append(l.cont, i)
			l.free[i] = true
		}
	}
	return l, nil
}

// arms returns the category index of every categorical variable of u.
func (l *mixedLayout) arms(u []float64) []int {
	h := make([]int, len(l.cat))
	for j, i := range l.cat {
		h[j] = bo.Level(u[i], l.levels[j])
	}
	return h
}

// setArms writes the canonical codes of the categories h into u.
func (l *mixedLayout) setArms(u []float64, h []int) {
	for j, i := range l.cat {
		u[i] = (float64(h[j]) + 0.5) / float64(l.levels[j])
	}
}

// features maps an encoded point to the GP input z (see mixedLayout),
// reusing dst when it has room.
func (l *mixedLayout) features(u, dst []float64) []float64 {
	if cap(dst) < len(u) {
		dst = make([]float64, len(u))
	}
	dst = dst[:len(u)]
	for i := range u {
		dst[i] = 2*u[i] - 1
	}
	for j, i := range l.cat {
		dst[i] = float64(bo.Level(u[i], l.levels[j]))
	}
	return dst
}

// key returns a string that identifies the category tuple h.
func armsKey(h []int) string { return fmt.Sprint(h) }
