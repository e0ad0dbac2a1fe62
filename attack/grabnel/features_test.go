package grabnel

import (
	"math"
	"testing"

	"github.com/boaopt/boa/attack"
)

func mustGraph(t *testing.T, n int, edges ...[2]int) attack.Graph {
	t.Helper()
	g, err := attack.NewGraph(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// byName returns the row of a featurizer as feature name → value.
func byName(f *featurizer, row []float64) map[string]float64 {
	m := map[string]float64{}
	for id, v := range row {
		m[f.wl.Name(id)] = v
	}
	return m
}

// spec §4: WL feature counts match a hand example, and a label unseen in
// training is ignored at prediction time.
func TestWLFeaturesByHand(t *testing.T) {
	// The path 0 – 1 – 2: degrees 1, 2, 1. h = 0 counts the labels {1: 2,
	// 2: 1}; h = 1 the subtrees 1(2) (nodes 0 and 2) and 2(1, 1) (node 1).
	path := mustGraph(t, 3, [2]int{0, 1}, [2]int{1, 2})
	f, rows := newFeaturizer([]attack.Graph{path})
	raw := byName(f, f.dense(f.wl.Features(toWL(path))))
	want := map[string]float64{"1": 2, "2": 1, "1(2)": 2, "2(1, 1)": 1}
	if len(raw) != len(want) {
		t.Fatalf("features %v, want %v", raw, want)
	}
	for k, v := range want {
		if raw[k] != v {
			t.Errorf("count of %q = %v, want %v (all: %v)", k, raw[k], v, raw)
		}
	}
	for _, v := range rows[0] {
		if v != 0 {
			t.Fatalf("one training graph: every column is constant and scales to 0, got %v", rows[0])
		}
	}

	// Add the edge 0 – 1 with node 2 isolated: degrees 1, 1, 0, so h = 0
	// {1: 2, 0: 1} and h = 1 {1(1): 2, 0(): 1}. Column "1" is 2 in both
	// graphs (constant → 0); every other column is 1 in one graph and 0
	// in the other.
	edge := mustGraph(t, 3, [2]int{0, 1})
	f, rows = newFeaturizer([]attack.Graph{path, edge})
	if f.vocab != 7 {
		t.Fatalf("vocabulary of %d features, want 7", f.vocab)
	}
	scaled := []map[string]float64{
		{"1": 0, "2": 1, "1(2)": 1, "2(1, 1)": 1, "0": 0, "1(1)": 0, "0()": 0},
		{"1": 0, "2": 0, "1(2)": 0, "2(1, 1)": 0, "0": 1, "1(1)": 1, "0()": 1},
	}
	for i, w := range scaled {
		got := byName(f, rows[i])
		for k, v := range w {
			if got[k] != v {
				t.Errorf("graph %d, scaled %q = %v, want %v", i, k, got[k], v)
			}
		}
	}

	// The triangle: degrees 2, 2, 2. Label "2" was seen (3 counts, scaled
	// (3 − 0)/(1 − 0) = 3); the subtree 2(2, 2) was not and is dropped.
	tri := mustGraph(t, 3, [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2})
	v := f.vector(tri)
	if len(v) != f.vocab {
		t.Fatalf("prediction vector of %d features, want the training vocabulary's %d", len(v), f.vocab)
	}
	got := byName(f, v)
	for k, x := range got {
		if w := map[bool]float64{true: 3, false: 0}[k == "2"]; x != w {
			t.Errorf("triangle: %q = %v, want %v", k, x, w)
		}
	}
	// A label never seen (degree 3) changes nothing either.
	star := mustGraph(t, 4, [2]int{0, 1}, [2]int{0, 2}, [2]int{0, 3})
	if got := byName(f, f.vector(star)); got["1"] != 0 || len(got) != f.vocab {
		t.Errorf("star: %v; want the constant column \"1\" at 0 and no new feature", got)
	}
	a := fitARD(rows, []float64{1, -1})
	if m, s := a.predict(f.vector(star)); math.IsNaN(m) || math.IsNaN(s) {
		t.Errorf("prediction on unseen labels: %v, %v", m, s)
	}
}

func TestStandardise(t *testing.T) {
	z := standardise([]float64{1, 2, 3})
	s := math.Sqrt(2.0 / 3)
	for i, w := range []float64{-1 / s, 0, 1 / s} {
		if math.Abs(z[i]-w) > 1e-12 {
			t.Fatalf("standardise = %v", z)
		}
	}
	if z := standardise([]float64{4, 4}); z[0] != 0 || z[1] != 0 {
		t.Fatalf("constant y: %v, want zeros", z)
	}
}
