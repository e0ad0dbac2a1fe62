package space

import (
	"fmt"
	"math/rand/v2"

	"github.com/boaopt/boa/qmc"
)

// Design is a kind of initial design.
type Design int

// The initial designs.
const (
	DesignUniform Design = iota // independent uniform points
	DesignSobol                 // scrambled Sobol points [spec gp-and-acquisitions §6.2]
	DesignLHS                   // maximin Latin hypercube, best of 100
)

var designNames = [...]string{"uniform", "sobol", "lhs"}

// String returns "uniform", "sobol" or "lhs".
func (d Design) String() string {
	if d >= 0 && int(d) < len(designNames) {
		return designNames[d]
	}
	return fmt.Sprintf("Design(%d)", int(d))
}

// ParseDesign parses "uniform", "sobol" or "lhs".
func ParseDesign(s string) (Design, error) {
	for i, n := range designNames {
		if s == n {
			return Design(i), nil
		}
	}
	return 0, fmt.Errorf("unknown initial design %q; want uniform, sobol or lhs", s)
}

// Design returns n initial points of the given kind in the encoded space,
// rounded to legal values (see Round). Sobol points are scrambled with rng;
// above qmc.MaxSobolDim parameters they are uniform. It panics if rng is nil
// or d is not a known Design.
func (s *Space) Design(d Design, n int, rng *rand.Rand) [][]float64 {
	if rng == nil {
		panic("space: Design needs a non-nil rng")
	}
	var pts [][]float64
	switch d {
	case DesignUniform:
		pts = qmc.Uniform(n, s.Len(), rng)
	case DesignSobol:
		pts = qmc.SobolPoints(n, s.Len(), rng)
	case DesignLHS:
		pts = qmc.LatinHypercube(n, s.Len(), rng, 0)
	default:
		panic(fmt.Sprintf("space: unknown design %d", int(d)))
	}
	for _, p := range pts {
		s.Round(p)
	}
	return pts
}

// Sample returns one point drawn uniformly from the encoded space, rounded
// to legal values.
func (s *Space) Sample(rng *rand.Rand) []float64 {
	u := make([]float64, s.Len())
	for i := range u {
		u[i] = rng.Float64()
	}
	s.Round(u)
	return u
}
