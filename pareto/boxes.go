package pareto

import (
	"cmp"
	"math"
	"slices"
)

// Box is the axis-aligned box Lo ≤ y < Hi; Lo may be −Inf.
type Box struct{ Lo, Hi []float64 }

// Boxes partitions the region below ref that no point dominates into
// disjoint boxes, the box decomposition of the non-dominated region that
// the expected hypervolume improvement integrates over (Emmerich et al.
// 2006; Daulton et al. 2020). The hypervolume a new point y adds to the
// points is then Improvement(boxes, y), a sum over the boxes.
//
// The boxes come from slicing along the last objective, as Hypervolume
// does (While et al. 2006): between two consecutive values of it the
// section of the region is the non-dominated region of the points below,
// one dimension down; a slice whose section did not change extends the
// one before. There are O(n^(d−1)) boxes for n points in d objectives:
// n + 1 in two dimensions, which is what the samplers use for 2–3
// objectives. Points that do not lie strictly below ref in every
// objective dominate nothing below it and are left out.
func Boxes(points [][]float64, ref []float64) []Box {
	var in [][]float64
	for _, p := range points {
		if !slices.ContainsFunc(p, math.IsNaN) && below(p, ref) {
			in = append(in, p)
		}
	}
	lo := slices.Repeat([]float64{math.Inf(-1)}, len(ref))
	return boxes(Nondominated(in), lo, ref)
}

// boxes decomposes the region of [lo, hi) that no point dominates, the
// points all below hi and none dominating another.
func boxes(points [][]float64, lo, hi []float64) []Box {
	d := len(hi)
	if len(points) == 0 {
		return []Box{{Lo: slices.Clone(lo), Hi: slices.Clone(hi)}}
	}
	if d == 1 {
		top := hi[0]
		for _, p := range points {
			top = min(top, p[0])
		}
		if top <= lo[0] {
			return nil
		}
		return []Box{{Lo: slices.Clone(lo), Hi: []float64{top}}}
	}
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int { return cmp.Compare(a[d-1], b[d-1]) })
	var out []Box
	// slab adds the section of the points sorted[:k] between z values
	// from and to.
	slab := func(k int, from, to float64) {
		if !(from < to) {
			return
		}
		section := make([][]float64, k)
		for i, p := range sorted[:k] {
			section[i] = p[:d-1]
		}
		for _, b := range boxes(Nondominated(section), lo[:d-1], hi[:d-1]) {
			out = append(out, Box{Lo: append(b.Lo, from), Hi: append(b.Hi, to)})
		}
	}
	from, k := lo[d-1], 0
	for i, p := range sorted {
		// p changes the section only when no point before it dominates
		// its projection.
		proj := p[:d-1]
		if slices.ContainsFunc(sorted[:i], func(q []float64) bool { return weaklyDominates(q[:d-1], proj) }) {
			continue
		}
		slab(k, from, p[d-1])
		from, k = p[d-1], i+1
	}
	slab(k, from, hi[d-1])
	return out
}

// weaklyDominates reports a_i ≤ b_i for every i.
func weaklyDominates(a, b []float64) bool {
	for i := range a {
		if a[i] > b[i] {
			return false
		}
	}
	return true
}

// Improvement is the hypervolume y adds to the points whose non-dominated
// region boxes partitions (Boxes): the volume of the part of each box
// that y dominates.
func Improvement(boxes []Box, y []float64) float64 {
	total := 0.0
	for _, b := range boxes {
		v := 1.0
		for i := range y {
			v *= max(0, b.Hi[i]-max(b.Lo[i], y[i]))
		}
		total += v
	}
	return total
}
