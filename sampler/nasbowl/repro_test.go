package nasbowl

// Reproduction of seed 000 §7.5.1 (Table 7.1, Fig. 7.5) for the GP on the
// WL kernel: Spearman rank correlation between predicted and true
// validation accuracy of NAS-Bench-201 cells, 50 random training and 400
// validation architectures, 20 repeats (nas-graph-bo.md §9.1). It reads
// ../shared/data/nb201 and skips without it:
//
//	go test ./sampler -run TestReproNB201Regression -v
//
// The numbers are recorded in docs/nasbowl.md.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/problems/tabular"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
	"gonum.org/v1/gonum/stat"
)

const nb201Dir = "../../shared/data/nb201/"

func loadNB201(t *testing.T, name string) *tabular.Table {
	t.Helper()
	path := nb201Dir + name + ".csv"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("NAS-Bench-201 table %s is absent (%v); this test needs ../shared/data beside the repository", path, err)
	}
	tb, err := tabular.Load(tabular.NB201, path)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// drawCells returns n distinct random cells of tb that have graphs, with
// their (seed-mean) validation errors.
func drawCells(t *testing.T, tb *tabular.Table, c cell, n int, rng *rand.Rand) ([][]float64, []float64) {
	seen := map[string]bool{}
	var xs [][]float64
	var ys []float64
	for len(xs) < n {
		u := tb.Space().Sample(rng)
		if _, err := c.graph(u); err != nil || seen[tb.Space().Key(u)] {
			continue
		}
		seen[tb.Space().Key(u)] = true
		y, err := tb.Objective(tb.Space().Decode(u), false, nil)
		if err != nil {
			t.Fatal(err)
		}
		xs, ys = append(xs, u), append(ys, y)
	}
	return xs, ys
}

// spearman is the rank correlation of a and b, ties given their mean rank.
func spearman(a, b []float64) float64 {
	return stat.Correlation(ranks(a), ranks(b), nil)
}

func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return v[idx[i]] < v[idx[j]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}

// regression fits n's GPWL to train (values as the sampler sees them:
// validation errors) and returns the Spearman correlation of its mean with
// the test values, and the chosen depth.
func regression(t *testing.T, n *NASBOWL, c cell, xs [][]float64, ys []float64, test [][]float64, want []float64) (float64, int) {
	h := &sampler.History{}
	for i, x := range xs {
		h.Observed = append(h.Observed, sampler.Observation{X: x, Y: ys[i]})
	}
	m, err := n.fit(h, c, test)
	if err != nil {
		t.Fatal(err)
	}
	mu := make([]float64, len(test))
	for i, x := range m.rows[m.first:] {
		mu[i], _ = m.g.Predict(x)
	}
	return spearman(mu, want), m.depth
}

// TestReproNB201Regression checks spec §9.1's acceptance with boa's
// default, undirected WL, and logs beside it the out-neighbour WL of the
// spec's Decision and the edge and GCN kernels of thesis 001 (§3.3–3.4). Regression studies choose H in {0..4} with the
// noise learned (spec §9.1, the reference code's regression settings; the
// sampler's default).
func TestReproNB201Regression(t *testing.T) {
	const repeats, ntrain, ntest = 20, 50, 400
	published := map[string]string{"cifar10": "0.812 ± 0.06", "cifar100": "0.823 ± 0.03"}
	for _, name := range []string{"cifar10", "cifar100"} {
		tb := loadNB201(t, name)
		c, err := cellOf(tb.Space())
		if err != nil {
			t.Fatal(err)
		}
		type result struct {
			rho    []float64
			depths map[int]int
		}
		models := []struct {
			label string
			n     *NASBOWL
		}{
			{"WL undirected", &NASBOWL{Depths: []int{0, 1, 2, 3, 4}}},
			{"WL succ", &NASBOWL{Depths: []int{0, 1, 2, 3, 4}, Neighbours: graph.Successors}},
			{"VH", &NASBOWL{Depths: []int{0}}},
			{"edge", &NASBOWL{Kernel: GraphKernelEdge}},
			{"GCN", &NASBOWL{Kernel: GraphKernelGCN}},
		}
		res := make([]result, len(models))
		for r := range repeats {
			rng := rand.New(rand.NewPCG(uint64(r+1), 7))
			xs, ys := drawCells(t, tb, c, ntrain+ntest, rng)
			for i, m := range models {
				rho, d := regression(t, m.n, c, xs[:ntrain], ys[:ntrain], xs[ntrain:], ys[ntrain:])
				if res[i].depths == nil {
					res[i].depths = map[int]int{}
				}
				res[i].rho = append(res[i].rho, rho)
				res[i].depths[d]++
			}
		}
		mean := make([]float64, len(models))
		for i, m := range models {
			var se float64
			mean[i], se = samplertest.MeanSE(res[i].rho)
			depths := ""
			if m.n.Kernel == GraphKernelWL {
				depths = ", chosen H" + depthCounts(res[i].depths)
			}
			t.Logf("NB201 %s, %s: Spearman %.3f ± %.3f (s.e.)%s", name, m.label, mean[i], se, depths)
		}
		t.Logf("NB201 %s: published WL %s (mean ± s.e., Table 7.1)", name, published[name])
		// Acceptance (spec §9.1): mean ≥ 0.75, WL > VH, H ∈ {1, 2} in ≥ 15
		// of 20, WL ≥ edge kernel.
		if mean[0] < 0.75 {
			t.Errorf("%s: mean Spearman of WL %.3f < 0.75", name, mean[0])
		}
		if mean[0] <= mean[2] {
			t.Errorf("%s: WL %.3f not above VH %.3f", name, mean[0], mean[2])
		}
		if n := res[0].depths[1] + res[0].depths[2]; n < 15 {
			t.Errorf("%s: H ∈ {1, 2} chosen in %d of %d repeats, want ≥ 15", name, n, repeats)
		}
		if mean[0] < mean[3] {
			t.Errorf("%s: WL %.3f below the edge kernel %.3f", name, mean[0], mean[3])
		}
	}
}

func depthCounts(m map[int]int) string {
	var s strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&s, " %d:%d", k, m[k])
	}
	return s.String()
}

// TestReproNB201Motifs reproduces seed 000 §7.3.3 (Fig. 7.2(b); spec
// §7.3): GPWL on 300 random NB201 CIFAR-10 cells scores the motifs seen
// more than 10 times; the top and bottom quarter by score are the good and
// the bad motifs. Of 1000 other random cells, those with a good motif
// should be better than all of them, and those with a bad motif worse, on
// CIFAR-10 and, the motifs transferred, on CIFAR-100; "the good subset
// includes the population max". Five repeats; the test asserts the good
// half of the claim in at least 4 of 5 on each table, and logs the rest
// (docs/nasbowl.md).
func TestReproNB201Motifs(t *testing.T) {
	c10, c100 := loadNB201(t, "cifar10"), loadNB201(t, "cifar100")
	c, err := cellOf(c10.Space())
	if err != nil {
		t.Fatal(err)
	}
	const repeats = 5
	goodBelow := map[string]int{}
	for r := range uint64(repeats) {
		rng := rand.New(rand.NewPCG(r+1, 11))
		xs, ys := drawCells(t, c10, c, 1300, rng)
		h := &sampler.History{Space: c10.Space()}
		for i := range 300 {
			h.Observed = append(h.Observed, sampler.Observation{X: xs[i], Y: ys[i]})
		}
		ms, err := New().Motifs(h, 10)
		if err != nil {
			t.Fatal(err)
		}
		q := len(ms) / 4
		good, bad := map[string]bool{}, map[string]bool{}
		for _, m := range ms[:q] {
			good[m.Name] = true
		}
		for _, m := range ms[len(ms)-q:] {
			bad[m.Name] = true
		}
		// Which validation cells have a good or a bad motif, by name
		// (names do not depend on the dictionary).
		w := graph.NewWL(3, graph.Undirected)
		hasGood, hasBad := make([]bool, 1000), make([]bool, 1000)
		for i, u := range xs[300:] {
			g, _ := c.graph(u)
			for _, f := range w.Features(g) {
				hasGood[i] = hasGood[i] || good[w.Name(f.ID)]
				hasBad[i] = hasBad[i] || bad[w.Name(f.ID)]
			}
		}
		for _, tb := range []*tabular.Table{c10, c100} {
			var all, gs, bs []float64
			for i, u := range xs[300:] {
				y, err := tb.Objective(tb.Space().Decode(u), false, nil)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, y)
				if hasGood[i] {
					gs = append(gs, y)
				}
				if hasBad[i] {
					bs = append(bs, y)
				}
			}
			best := slices.Min(all)
			t.Logf("repeat %d, %s: median validation error of all %d cells %.2f, of the %d with a good motif %.2f, of the %d with a bad one %.2f; the best (%.2f) has a good motif: %v",
				r+1, tb.Name(), len(all), samplertest.Median(all), len(gs), samplertest.Median(gs), len(bs), samplertest.Median(bs), best, slices.Contains(gs, best))
			if samplertest.Median(gs) < samplertest.Median(all) {
				goodBelow[tb.Name()]++
			}
		}
	}
	for _, name := range []string{c10.Name(), c100.Name()} {
		if goodBelow[name] < repeats-1 {
			t.Errorf("%s: the cells with a good motif are better than all in %d of %d repeats, want ≥ %d", name, goodBelow[name], repeats, repeats-1)
		}
	}
}

// median returns the median of v (the upper one of an even count), NaN
// for none.
