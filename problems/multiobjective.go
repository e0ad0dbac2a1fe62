package problems

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/boaopt/boa/problems/constrained"
	"github.com/boaopt/boa/problems/multiobjective"
	"github.com/boaopt/boa/space"
)

// MultiObjective is a problem of several objectives, all minimised (issue
// 43's benchmarks): ZDT1–3 (Zitzler et al. 2000), DTLZ2 (Deb et al.
// 2005) and NAS-Bench-201's validation error against a device's latency
// (problems/multiobjective). A run is scored by the hypervolume of the
// Pareto front of its evaluations, normalised by Normalise, at Ref,
// against the true front's, FrontHV.
type MultiObjective interface {
	// Problem's Evaluate returns the first objective, and Optimum has
	// none: a single figure does not score a front.
	Problem
	// Objectives names the objectives, in the order of EvaluateAll's values.
	Objectives() []string
	// EvaluateAll returns every objective of a.
	EvaluateAll(a space.Assignment, rng *rand.Rand) ([]float64, error)
	// Normalise maps EvaluateAll's values to the units of Ref and FrontHV.
	Normalise(y []float64) []float64
	// Ref is the hypervolume's reference point, in normalised units.
	Ref() []float64
	// FrontHV is the hypervolume of the true front at Ref: the ceiling of
	// any run's.
	FrontHV() float64
}

// zdtRef is the reference point of the ZDT problems in the harness,
// BoTorch's [reference code: pytorch/botorch]: at the usual 1.1 no point
// of a hundred evaluations gets inside the box (g must be close to 1 in
// every variable; Optuna's random, NSGA-II and MOTPE samplers measured
// none in 30 or 6 variables), and every run would score 0. DTLZ2 keeps
// 1.1, which BoTorch uses too.
var zdtRef = []float64{11, 11}

// moFunction is a test function of problems/multiobjective on the unit
// box, parameters x1..xd.
type moFunction struct {
	name string
	fn   multiobjective.Function
	box  *function
}

func (p *moFunction) Name() string                    { return p.name }
func (p *moFunction) Space() *space.Space             { return p.box.sp }
func (p *moFunction) Optimum() (float64, bool)        { return math.NaN(), false }
func (p *moFunction) Normalise(y []float64) []float64 { return slices.Clone(y) }
func (p *moFunction) Ref() []float64                  { return slices.Clone(p.fn.Ref) }
func (p *moFunction) FrontHV() float64                { return p.fn.FrontHV }

func (p *moFunction) Objectives() []string {
	names := make([]string, p.fn.Objectives)
	for i := range names {
		names[i] = fmt.Sprintf("f%d", i+1)
	}
	return names
}

func (p *moFunction) EvaluateAll(a space.Assignment, _ *rand.Rand) ([]float64, error) {
	x, err := p.box.point(a)
	if err != nil {
		return nil, err
	}
	return p.fn.F(x), nil
}

func (p *moFunction) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	y, err := p.EvaluateAll(a, rng)
	if err != nil {
		return math.NaN(), err
	}
	return y[0], nil
}

// moNB201 is NAS-Bench-201 CIFAR-10 validation error against latency on a
// device.
type moNB201 struct {
	name string
	d    *constrained.NB201Latency
	p    *multiobjective.NB201
}

func (p *moNB201) Name() string                    { return p.name }
func (p *moNB201) Space() *space.Space             { return p.d.Space() }
func (p *moNB201) Optimum() (float64, bool)        { return math.NaN(), false }
func (p *moNB201) Objectives() []string            { return slices.Clone(multiobjective.NB201Objectives) }
func (p *moNB201) Normalise(y []float64) []float64 { return p.p.Normalise(y) }
func (p *moNB201) Ref() []float64                  { return slices.Clone(p.p.Ref) }
func (p *moNB201) FrontHV() float64                { return p.p.FrontHV }

func (p *moNB201) EvaluateAll(a space.Assignment, _ *rand.Rand) ([]float64, error) {
	id, err := p.d.CellID(a)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return p.p.Values(id), nil
}

func (p *moNB201) Evaluate(a space.Assignment, rng *rand.Rand) (float64, error) {
	y, err := p.EvaluateAll(a, rng)
	if err != nil {
		return math.NaN(), err
	}
	return y[0], nil
}

// NB201Front returns the problem's true Pareto front: the cells on it
// and their objectives, by increasing error (for tests and docs).
func (p *moNB201) NB201Front() (cells []space.Assignment, values [][]float64) {
	for _, id := range p.p.Front {
		c, _, _ := p.d.CellAt(id)
		cells, values = append(cells, c), append(values, p.p.Values(id))
	}
	return cells, values
}

// cifar10Latency caches the joined NB201 latency and CIFAR-10 files.
var cifar10Latency struct {
	sync.Mutex
	d *constrained.NB201Latency
}

// newMultiObjective returns the multi-objective problem of a name, found
// false when none has it: zdt1, zdt2, zdt3, dtlz2 (with :DIM for the
// number of variables, e.g. zdt1:10) and nb201-acc-latency[:DEVICE].
func newMultiObjective(spec string) (p Problem, found bool, err error) {
	head, rest, hasRest := strings.Cut(spec, ":")
	head = strings.ToLower(head)
	switch {
	case head == multiobjective.NB201Prefix:
		device := multiobjective.NB201DefaultDevice
		if hasRest {
			device = rest
		}
		p, err := newNB201AccLatency(device)
		return p, true, err
	case slices.Contains(multiobjective.Names(), head):
		dim := 0
		if hasRest {
			d, err := strconv.Atoi(rest)
			if err != nil || d < 1 {
				return nil, true, fmt.Errorf("the number of variables %q must be a positive integer", rest)
			}
			dim = d
		}
		fn, err := multiobjective.Get(head, dim)
		if err != nil {
			return nil, true, err
		}
		if fn.Objectives == 2 { // ZDT
			if fn, err = fn.At(zdtRef); err != nil {
				return nil, true, err
			}
		}
		lo, hi := make([]float64, fn.Dim), slices.Repeat([]float64{1}, fn.Dim)
		return &moFunction{name: spec, fn: fn, box: newFunction(spec, fn.Dim, lo, hi, nil, math.NaN())}, true, nil
	}
	return nil, false, nil
}

// newNB201AccLatency makes nb201-acc-latency:DEVICE on the data found by
// dataDir (nb201/cifar10.csv and nb201-latency/latency.csv).
func newNB201AccLatency(device string) (Problem, error) {
	cifar10Latency.Lock()
	defer cifar10Latency.Unlock()
	if cifar10Latency.d == nil {
		dir, err := dataDir("nb201-latency/latency.csv", "nb201/cifar10.csv")
		if err != nil {
			return nil, err
		}
		d, err := constrained.LoadNB201Latency(filepath.Join(dir, "nb201-latency", "latency.csv"), filepath.Join(dir, "nb201", "cifar10.csv"))
		if err != nil {
			return nil, err
		}
		cifar10Latency.d = d
	}
	d := cifar10Latency.d
	validErr, _, lat, err := d.Columns(device)
	if err != nil {
		return nil, err
	}
	mp, err := multiobjective.NewNB201(device, validErr, lat)
	if err != nil {
		return nil, err
	}
	return &moNB201{name: multiobjective.NB201Prefix + ":" + strings.ToLower(device), d: d, p: mp}, nil
}
