package analysis

import (
	"fmt"
	"math"
	"slices"

	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/study"
)

// Contour is the forest's prediction on a grid over two parameters (the
// others at the best trial's values), with the observed points. X and Y are
// the grid's values in the parameters' units (for a categorical or boolean
// parameter, the indices of its choices, named by XLabels or YLabels);
// Z[j][i] is the prediction at (X[i], Y[j]).
type Contour struct {
	X, Y             []float64
	XLabels, YLabels []string
	Z                [][]float64
	Points           []SlicePoint2
}

// SlicePoint2 is a COMPLETE trial in which both parameters are active.
type SlicePoint2 struct {
	Number int
	X, Y   float64
	Value  float64
}

// ContourOf fits a forest (Importances' settings and sample, 16 trees) to every
// parameter and predicts on a grid of at most grid values per axis: every
// value of a discrete parameter with at most grid of them, otherwise grid
// points evenly spaced in the unit cube (so in log v on a log scale). It is
// an error for an unknown or repeated parameter, grid < 2, or fewer than 2
// COMPLETE trials.
func ContourOf(s Study, px, py string, grid int, seed uint64) (Contour, error) {
	ix, err := index(s.Space, px)
	if err != nil {
		return Contour{}, err
	}
	iy, err := index(s.Space, py)
	if err != nil {
		return Contour{}, err
	}
	switch {
	case ix == iy:
		return Contour{}, fmt.Errorf("analysis: a contour needs two different parameters, got %q twice", px)
	case grid < 2:
		return Contour{}, fmt.Errorf("analysis: contour grid = %d, want ≥ 2", grid)
	}
	trials := sample(s, seed)
	if len(trials) < 2 {
		return Contour{}, fmt.Errorf("analysis: a contour needs at least 2 COMPLETE trials, the study has %d", len(trials))
	}
	X := make([][]float64, len(trials))
	y := make([]float64, len(trials))
	for r, t := range trials {
		X[r], y[r] = coded(s, t), t.Value
	}
	f, err := fit(X, y, contourTrees, seed)
	if err != nil {
		return Contour{}, fmt.Errorf("analysis: %w", err)
	}
	pX, pY := s.Space.Param(ix), s.Space.Param(iy)
	ux, vx, err := axisGrid(pX, grid)
	if err != nil {
		return Contour{}, err
	}
	uy, vy, err := axisGrid(pY, grid)
	if err != nil {
		return Contour{}, err
	}
	c := Contour{X: vx, Y: vy, XLabels: categories(&pX), YLabels: categories(&pY), Z: make([][]float64, len(uy))}
	at := slices.Clone(coded(s, bestTrial(s, trials)))
	for j := range uy {
		c.Z[j] = make([]float64, len(ux))
		at[iy] = uy[j]
		for i := range ux {
			at[ix] = ux[i]
			c.Z[j][i], _ = f.Predict(at)
		}
	}
	for k := range s.Trials {
		t := &s.Trials[k]
		if !complete(t) {
			continue
		}
		a, okx := t.Params[px]
		b, oky := t.Params[py]
		if okx && oky {
			xv, _ := numeric(&pX, a)
			yv, _ := numeric(&pY, b)
			c.Points = append(c.Points, SlicePoint2{Number: t.Number, X: xv, Y: yv, Value: t.Value})
		}
	}
	return c, nil
}

// bestTrial is the best feasible trial of the sample, else its best.
func bestTrial(s Study, trials []*study.Trial) *study.Trial {
	var b, bAny *study.Trial
	for _, t := range trials {
		if bAny == nil || s.better(t.Value, bAny.Value) {
			bAny = t
		}
		if feasible(t) && (b == nil || s.better(t.Value, b.Value)) {
			b = t
		}
	}
	if b == nil {
		return bAny
	}
	return b
}

// axisGrid returns the unit-cube codes and the values (choice indices for
// an unordered parameter) of one contour axis. A space of the parameter
// alone (without its condition) encodes and decodes exactly as the study's
// space does, each parameter owning its coordinate.
func axisGrid(p space.Param, grid int) (codes, values []float64, err error) {
	p.When = nil
	one, err := space.New(p)
	if err != nil {
		return nil, nil, fmt.Errorf("analysis: %w", err)
	}
	var vals []any
	if L := one.Levels(0); L > 0 && L <= grid {
		for k := range L {
			u := (float64(k) + 0.5) / float64(L)
			if p.Kind == space.Int && p.Log {
				// Log-scale cells are not equal: level k is the integer.
				vals = append(vals, int(p.Low)+k)
				continue
			}
			vals = append(vals, one.Decode([]float64{u})[p.Name])
		}
	} else {
		seen := map[any]bool{}
		for k := range grid {
			v := one.Decode([]float64{float64(k) / float64(grid-1)})[p.Name]
			if !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
	}
	for _, v := range vals {
		u, err := one.Encode(space.Assignment{p.Name: v})
		if err != nil {
			return nil, nil, fmt.Errorf("analysis: %w", err)
		}
		x, _ := numeric(&p, v)
		if math.IsNaN(x) {
			return nil, nil, fmt.Errorf("analysis: cannot place %v of %q on an axis", v, p.Name)
		}
		codes = append(codes, u[0])
		values = append(values, x)
	}
	return codes, values, nil
}
