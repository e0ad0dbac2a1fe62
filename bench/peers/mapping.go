package peers

import (
	"math"
	"math/big"
	"slices"

	"github.com/boaopt/boa/space"
)

// plan is how one boa parameter is asked of a peer: the parameter, the
// parameters it depends on, and, for an ordinal, the spacing of its values.
type plan struct {
	space.Param
	// step is the common difference of an ordinal's values when they are
	// evenly spaced as written in decimal (0, 0.3, 0.6 but not 1, 2, 4), and
	// 0 otherwise; evenly spaced ordinals are numeric to a peer (step
	// distributions), the others categorical.
	step float64
}

// plans returns the parameters of sp in the order peers must suggest them:
// every parent before its children (define-by-run), declaration order
// otherwise, so a peer sees the same sequence of suggest calls on every
// trial.
func plans(sp *space.Space) []plan {
	ps := sp.Params()
	placed := make([]bool, len(ps))
	out := make([]plan, 0, len(ps))
	for len(out) < len(ps) {
		progress := false
		for i, p := range ps {
			if placed[i] || !parentsPlaced(p, ps, placed) {
				continue
			}
			placed[i], progress = true, true
			pl := plan{Param: p}
			if p.Kind == space.Ordinal {
				pl.step = evenStep(p.Values)
			}
			out = append(out, pl)
			break // restart so declaration order wins among ready parameters
		}
		if !progress {
			// space.New rejects cyclic conditions, so a *Space never gets here.
			panic("peers: cyclic conditions in a validated space")
		}
	}
	return out
}

func parentsPlaced(p space.Param, ps []space.Param, placed []bool) bool {
	for parent := range p.When {
		j := slices.IndexFunc(ps, func(q space.Param) bool { return q.Name == parent })
		if j < 0 || !placed[j] {
			return false
		}
	}
	return true
}

// active reports whether p is active given the values suggested so far for
// its parents (which come before it in plan order): every parent must be
// present and take one of the listed values. space.Params gives the listed
// values in canonical form (space.Format), and peers return canonical Go
// values, so comparing formatted strings is exact.
func active(p space.Param, a space.Assignment) bool {
	for parent, allowed := range p.When {
		v, ok := a[parent]
		if !ok || !slices.Contains(allowed, space.Format(v)) {
			return false
		}
	}
	return true
}

// evenStep returns the common difference of values when they are evenly
// spaced as decimals, else 0. Exactness matters: the values are compared as
// the shortest decimals that read back to them (what a user wrote), so that
// 0.1, 0.2, 0.3 counts as evenly spaced although their float64 differences
// are not all equal, while 1, 2, 4 does not.
func evenStep(values []float64) float64 {
	if len(values) < 2 {
		return 0
	}
	rats := make([]*big.Rat, len(values))
	for i, v := range values {
		r, ok := new(big.Rat).SetString(space.Format(v))
		if !ok {
			return 0
		}
		rats[i] = r
	}
	d := new(big.Rat).Sub(rats[1], rats[0])
	for i := 2; i < len(rats); i++ {
		if new(big.Rat).Sub(rats[i], rats[i-1]).Cmp(d) != 0 {
			return 0
		}
	}
	q, _ := d.Float64()
	return q
}

// nearest returns the value of the ordered list closest to x: peers hand
// back step-grid values computed in floating point (low + k·step), which may
// miss the declared value by an ulp.
func nearest(values []float64, x float64) float64 {
	i, found := slices.BinarySearch(values, x)
	switch {
	case found:
		return values[i]
	case i == 0:
		return values[0]
	case i == len(values):
		return values[len(values)-1]
	case x-values[i-1] <= values[i]-x:
		return values[i-1]
	}
	return values[i]
}

// clampFloat keeps a peer's float inside [low, high]; peers only leave it by
// rounding (exp(log(high)) may exceed high by an ulp).
func clampFloat(x, low, high float64) float64 {
	return math.Min(math.Max(x, low), high)
}
