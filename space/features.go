package space

import (
	"slices"
	"strconv"
)

// Features maps an encoded point to the GP's input vector and returns it:
// Float, Int and Ordinal coordinates as they are, Categorical and Bool
// parameters one-hot over FeatureIndex(i) … FeatureIndex(i)+Levels(i)−1
// (the one-hot view of mixed spaces [000 §5.4]); inactive parameters map to
// 0 (an all-zero one-hot block), so that a GP sees no spurious differences
// between points that differ only in inactive coordinates. dst is reused
// when it has room for NumFeatures values. It panics if len(u) != Len().
func (s *Space) Features(u []float64, dst []float64) []float64 {
	act := s.Active(u)
	if cap(dst) < s.nfeat {
		dst = make([]float64, s.nfeat)
	}
	dst = dst[:s.nfeat]
	clear(dst)
	for i, p := range s.params {
		if !act[i] {
			continue
		}
		switch p.Kind {
		case Categorical, Bool:
			dst[s.feat[i]+s.level(i, u[i])] = 1
		default:
			dst[s.feat[i]] = u[i]
		}
	}
	return dst
}

// FeatureNoise returns the standard deviation of the input noise of each
// feature (Features): InputNoise of a Float parameter over its range, which
// the encoding maps linearly onto [0, 1], and 0 for every other feature;
// nil when no parameter declares input noise. A GP of noisy inputs (UTGP,
// package uncertain) is given it [002 §3.1: Σ_x known].
func (s *Space) FeatureNoise() []float64 {
	var out []float64
	for i, p := range s.params {
		if p.InputNoise == 0 {
			continue
		}
		if out == nil {
			out = make([]float64, s.nfeat)
		}
		out[s.feat[i]] = p.InputNoise / (p.High - p.Low)
	}
	return out
}

// Neighbours returns the discrete moves from u used by local search: for each
// active Int or Ordinal parameter the next lower and the next higher legal
// value, for each active Categorical or Bool parameter every other choice.
// Each neighbour is a copy of u with one coordinate set to the canonical
// code of its new level; Float coordinates are unchanged. It panics if
// len(u) != Len().
func (s *Space) Neighbours(u []float64) [][]float64 {
	act := s.Active(u)
	var out [][]float64
	move := func(i, k int) {
		v := slices.Clone(u)
		v[i] = s.code(i, k)
		out = append(out, v)
	}
	for i, p := range s.params {
		if !act[i] || p.Kind == Float {
			continue
		}
		k := s.level(i, u[i])
		switch p.Kind {
		case Int, Ordinal:
			if k > 0 {
				move(i, k-1)
			}
			if k < s.levels[i]-1 {
				move(i, k+1)
			}
		default:
			for j := range s.levels[i] {
				if j != k {
					move(i, j)
				}
			}
		}
	}
	return out
}

// Enumerate lists every combination of legal values of the discrete
// parameters, with Float coordinates at 0.5 and inactive parameters at the
// placeholder 0.5, so that combinations differing only in inactive
// parameters appear once. It returns ok = false, and no points, when there are
// more than max combinations.
func (s *Space) Enumerate(max int) (points [][]float64, ok bool) {
	n := len(s.params)
	u := make([]float64, n)
	act := make([]bool, n)
	var rec func(t int) bool
	rec = func(t int) bool {
		if t == n {
			if len(points) >= max {
				return false
			}
			points = append(points, slices.Clone(u))
			return true
		}
		i := s.topo[t]
		act[i] = s.activeAt(i, u, act, nil)
		if !act[i] || s.params[i].Kind == Float {
			u[i] = 0.5
			return rec(t + 1)
		}
		for k := range s.levels[i] {
			u[i] = s.code(i, k)
			if !rec(t + 1) {
				return false
			}
		}
		u[i] = 0.5
		return true
	}
	if !rec(0) {
		return nil, false
	}
	return points, true
}

// Key returns a canonical string of the decoded point, equal for two points
// exactly when they decode to the same assignment; use it to detect
// duplicate configurations. It panics if len(u) != Len().
//
// Samplers call it for every candidate they score, so it is built from
// strings quoted once in New; the result is what quoting each name and
// Format(value) would give (numbers need no escaping).
func (s *Space) Key(u []float64) string {
	act := s.Active(u)
	b := make([]byte, 0, 16*len(u))
	for i, p := range s.params {
		if !act[i] {
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, s.keyName[i]...)
		switch p.Kind {
		case Float:
			b = append(b, '"')
			b = strconv.AppendFloat(b, s.floatValue(i, u[i]), 'g', -1, 64)
			b = append(b, '"')
		case Int:
			b = append(b, '"')
			b = strconv.AppendInt(b, int64(int(p.Low)+s.level(i, u[i])), 10)
			b = append(b, '"')
		default:
			b = append(b, s.keyLevel[i][s.level(i, u[i])]...)
		}
	}
	return string(b)
}
