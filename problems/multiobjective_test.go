package problems

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/space"
)

// The multi-objective test functions parse with and without a number of
// variables, evaluate on the unit box and refuse bad names.
func TestMultiObjectiveParse(t *testing.T) {
	for _, c := range []struct {
		spec      string
		dim, objs int
	}{{"zdt1", 30, 2}, {"zdt2:10", 10, 2}, {"zdt3", 30, 2}, {"dtlz2", 12, 3}, {"dtlz2:5", 5, 3}} {
		p, err := Parse(c.spec)
		if err != nil {
			t.Fatalf("Parse(%s): %v", c.spec, err)
		}
		mo, ok := p.(MultiObjective)
		if !ok || p.Name() != c.spec || p.Space().Len() != c.dim || len(mo.Objectives()) != c.objs || len(mo.Ref()) != c.objs {
			t.Fatalf("Parse(%s) = %s with %d variables, multi-objective %v", c.spec, p.Name(), p.Space().Len(), ok)
		}
		if _, ok := p.Optimum(); ok {
			t.Errorf("%s: a multi-objective problem has no single optimum", c.spec)
		}
		a := space.Assignment{}
		for _, n := range p.Space().Names() {
			a[n] = 0.0 // on ZDT's front
			if c.objs == 3 {
				a[n] = 0.5 // on DTLZ2's
			}
		}
		a["x1"] = 0.25
		y, err := mo.EvaluateAll(a, nil)
		if err != nil || len(y) != c.objs {
			t.Fatalf("%s: EvaluateAll = %v, %v", c.spec, y, err)
		}
		if v, _ := p.Evaluate(a, nil); v != y[0] {
			t.Errorf("%s: Evaluate = %v, the first objective is %v", c.spec, v, y[0])
		}
		if hv := pareto.Hypervolume([][]float64{mo.Normalise(y)}, mo.Ref()); !(hv > 0 && hv < mo.FrontHV()) {
			t.Errorf("%s: one point's hypervolume %v, the front's %v", c.spec, hv, mo.FrontHV())
		}
	}
	for _, bad := range []string{"zdt1:0", "zdt1:x", "dtlz2:2"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%s): no error", bad)
		}
	}
}

// NB201 accuracy against latency [../shared/data/nb201,
// ../shared/data/nb201-latency]: cell 0 by hand from the two files, the
// true front checked point by point against every cell, and its
// hypervolume against the normalised staircase summed by hand.
func TestNB201AccLatency(t *testing.T) {
	if _, err := dataDir("nb201-latency/latency.csv", "nb201/cifar10.csv"); errors.Is(err, ErrNoData) {
		t.Skipf("needs ../shared/data (nb201/cifar10.csv and nb201-latency/latency.csv): %v", err)
	}
	p, err := Parse("nb201-acc-latency")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name() != "nb201-acc-latency:pixel2" {
		t.Errorf("default name %s", p.Name())
	}
	mo := p.(MultiObjective)
	nb := p.(*moNB201)
	// NB201 index 0, |avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|:
	// CIFAR-10 valid_acc_mean 81.98266665690103, pixel2 9 ms.
	a, arch, err := nb.d.Cell(0)
	if err != nil || arch != "|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|" {
		t.Fatalf("Cell(0) = %s, %v", arch, err)
	}
	y, err := mo.EvaluateAll(a, nil)
	if err != nil || math.Abs(y[0]-(100-81.98266665690103)) > 1e-9 || y[1] != 9 {
		t.Fatalf("cell 0: %v, %v; want (%v, 9)", y, err, 100-81.98266665690103)
	}
	// no cell adds to the front's hypervolume
	var all [][]float64
	for id := range nb.p.ValidErr {
		all = append(all, nb.p.Values(id))
	}
	var normalised [][]float64
	for _, y := range all {
		normalised = append(normalised, mo.Normalise(y))
	}
	if hv := pareto.Hypervolume(normalised, mo.Ref()); math.Abs(hv-mo.FrontHV()) > 1e-12 {
		t.Errorf("every cell's hypervolume %v, the front's %v", hv, mo.FrontHV())
	}
	cells, front := nb.NB201Front()
	if len(front) < 3 || len(cells) != len(front) {
		t.Fatalf("a front of %d points", len(front))
	}
	for i, f := range front {
		if v, _ := mo.EvaluateAll(cells[i], nil); !slices.Equal(v, f) {
			t.Fatalf("front cell %d evaluates to %v, listed as %v", i, v, f)
		}
		for _, q := range all {
			if pareto.Dominates(q, f) {
				t.Fatalf("front point %v is dominated by %v", f, q)
			}
		}
	}
	// by hand: with the front sorted by error, each point adds the strip
	// from its latency up to the previous one's (the reference for the first)
	lo, hi := nb.p.Bounds()
	hv, prev := 0.0, 1.1
	for _, f := range front {
		e, l := (f[0]-lo[0])/(hi[0]-lo[0]), (f[1]-lo[1])/(hi[1]-lo[1])
		hv += (1.1 - e) * (prev - l)
		prev = l
	}
	if math.Abs(hv-mo.FrontHV()) > 1e-12 || mo.FrontHV() >= 1.21 || mo.FrontHV() < 0.21 {
		t.Errorf("front hypervolume %v, by hand %v", mo.FrontHV(), hv)
	}
	t.Logf("pixel2: %d front points, errors %.4g..%.4g %%, latencies %v..%v ms, front hypervolume %.6f", len(front), front[0][0], front[len(front)-1][0], front[len(front)-1][1], front[0][1], mo.FrontHV())
	if q, err := Parse("nb201-acc-latency:titanx_1"); err != nil {
		t.Error(err)
	} else {
		_, f := q.(*moNB201).NB201Front()
		t.Logf("titanx_1: %d front points, front hypervolume %.6f", len(f), q.(MultiObjective).FrontHV())
	}
	if _, err := Parse("nb201-acc-latency:nosuch"); err == nil {
		t.Error("an unknown device: no error")
	}
}
