package gkls

import "fmt"

// Class returns the class of spec §7.2 in dimension 2..5, "simple" or
// "hard" [Sergeyev et al. 2018], as 004 §7.1.2 uses them: 30 minima,
// global value −1, and the distance r and radius ρ of the spec's table.
func Class(dim int, class string) (Params, error) {
	type rr struct{ dist, radius float64 }
	table := map[string]map[int]rr{
		"simple": {2: {0.90, 0.20}, 3: {0.66, 0.20}, 4: {0.66, 0.20}, 5: {0.66, 0.30}},
		"hard":   {2: {0.90, 0.10}, 3: {0.90, 0.20}, 4: {0.90, 0.20}, 5: {0.66, 0.20}},
	}
	c, ok := table[class]
	if !ok {
		return Params{}, fmt.Errorf("gkls: class %q: want simple or hard", class)
	}
	v, ok := c[dim]
	if !ok {
		return Params{}, fmt.Errorf("gkls: the %s class has dimensions 2..5, not %d", class, dim)
	}
	return Params{Dim: dim, Minima: 30, GlobalValue: -1, Dist: v.dist, Radius: v.radius}, nil
}
