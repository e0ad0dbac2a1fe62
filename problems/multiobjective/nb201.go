package multiobjective

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/boaopt/boa/pareto"
)

// NAS-Bench-201 accuracy against latency, a real multi-objective NAS
// problem: over the 15,625 cells of NAS-Bench-201 (Dong & Yang 2020),
// minimise the CIFAR-10 validation error 100 − valid_acc_mean (percent,
// the mean over the table's seeds: noiseless, as a user choosing among
// the table's cells would see it [../shared/data/nb201]) and the cell's
// latency on a device (ms, measured by HELP, Lee et al. 2021
// [../shared/data/nb201-latency]). Both are known for every cell, so the
// true Pareto front and its hypervolume are exact, by enumeration.
//
// Normalisation: the hypervolume is taken after mapping each objective
// by the ideal and nadir points of the true front, f̃ = (f − ideal)/(nadir
// − ideal), the ideal being the least error and the least latency of any
// cell and the nadir the worst of each among the front's cells; the
// reference point is 1.1 in both, as for ZDT, whose front spans [0, 1]
// in each objective too. A box around the whole table instead (its
// maximum error is that of a cell that guesses) is dominated to 99% by
// the front, and every sampler's ratio would round to 1.

// NB201Prefix starts the name of the problem: nb201-acc-latency or
// nb201-acc-latency:DEVICE.
const NB201Prefix = "nb201-acc-latency"

// NB201DefaultDevice is the device when the name gives none: the Pixel 2
// phone, a mobile device as in HELP's and HW-NAS-Bench's studies, and
// the device of the constrained nb201-latency problem's examples.
const NB201DefaultDevice = "pixel2"

// NB201Objectives names the two objectives.
var NB201Objectives = []string{"valid_error", "latency_ms"}

// NB201 is the problem on one device, built from the two columns of every
// cell. It is immutable and safe for concurrent use.
type NB201 struct {
	Device string
	// ValidErr and Latency hold each cell's objectives, by the position
	// of the cell in the caller's order (problems/constrained's grid
	// order).
	ValidErr, Latency []float64
	lo, hi            [2]float64 // the ideal and nadir points
	// Ref is the reference point in normalised units: 1.1, 1.1.
	Ref []float64
	// FrontHV is the hypervolume of the true front at Ref, normalised.
	FrontHV float64
	// Front holds the positions of the cells on the true front, one per
	// distinct point of it, by increasing error.
	Front []int
}

// NewNB201 makes the problem of a device from every cell's validation
// error (percent) and latency (ms).
func NewNB201(device string, validErr, latency []float64) (*NB201, error) {
	if len(validErr) != len(latency) || len(validErr) == 0 {
		return nil, fmt.Errorf("multiobjective: nb201: %d errors and %d latencies; want one of each per cell", len(validErr), len(latency))
	}
	n := &NB201{Device: device, ValidErr: validErr, Latency: latency, Ref: []float64{1.1, 1.1}}
	pts := make([][]float64, len(validErr))
	for i := range validErr {
		pts[i] = []float64{validErr[i], latency[i]}
		for k, v := range pts[i] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("multiobjective: nb201: cell %d has %s %v", i, NB201Objectives[k], v)
			}
		}
	}
	seen := map[[2]float64]bool{}
	for _, i := range pareto.Front(pts) {
		k := [2]float64{pts[i][0], pts[i][1]}
		if !seen[k] {
			seen[k] = true
			n.Front = append(n.Front, i)
		}
	}
	n.lo = [2]float64{math.Inf(1), math.Inf(1)}
	n.hi = [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, i := range n.Front {
		for k, v := range pts[i] {
			n.lo[k], n.hi[k] = min(n.lo[k], v), max(n.hi[k], v)
		}
	}
	if n.lo[0] == n.hi[0] {
		return nil, fmt.Errorf("multiobjective: nb201: the front is one point; no trade-off to measure")
	}
	front := make([][]float64, len(n.Front))
	for j, i := range n.Front {
		front[j] = n.Normalise(pts[i])
	}
	n.FrontHV = pareto.Hypervolume(front, n.Ref)
	slices.SortFunc(n.Front, func(a, b int) int { return cmp.Compare(validErr[a], validErr[b]) })
	return n, nil
}

// Values returns the objectives of the cell at position id: the error
// (percent) and the latency (ms).
func (n *NB201) Values(id int) []float64 { return []float64{n.ValidErr[id], n.Latency[id]} }

// Normalise maps objective values (error in percent, latency in ms) to
// the units of Ref and FrontHV: (f − ideal)/(nadir − ideal), by the true
// front's ideal and nadir points.
func (n *NB201) Normalise(y []float64) []float64 {
	return []float64{(y[0] - n.lo[0]) / (n.hi[0] - n.lo[0]), (y[1] - n.lo[1]) / (n.hi[1] - n.lo[1])}
}

// Bounds returns the ideal and nadir points of the true front, in the
// objectives' own units.
func (n *NB201) Bounds() (lo, hi []float64) {
	return []float64{n.lo[0], n.lo[1]}, []float64{n.hi[0], n.hi[1]}
}
