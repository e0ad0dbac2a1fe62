package tabular

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// writeFile writes content to name in a fresh temporary directory.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// smallHPO is a 2×1×1×1×2 HPOBench grid with shuffled columns and rows,
// a missing seed, and 32 written two ways.
const smallHPO = `width,alpha,batch_size,depth,learning_rate_init,seed0,seed1,seed2
16,1e-3,4,1,1e-05,0.5,0.6,0.7
16,1e-4,4,1,1e-05,0.8,,0.9
32,1e-3,4,1,1e-05,0.1,0.2,0.3
32.0,1e-4,4,1,1e-05,0.95,0.97,0.99
`

func TestGridTable(t *testing.T) {
	tb, err := Load(HPOBench, writeFile(t, "small.csv", smallHPO))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Name() != "hpobench-small" || tb.Len() != 4 || tb.Seeds() != 3 {
		t.Errorf("Name, Len, Seeds = %s, %d, %d; want hpobench-small, 4, 3", tb.Name(), tb.Len(), tb.Seeds())
	}
	// README order, whatever the file's column order; numbers sorted.
	want := []space.Param{
		{Name: "alpha", Kind: space.Ordinal, Values: []float64{1e-4, 1e-3}},
		{Name: "batch_size", Kind: space.Ordinal, Values: []float64{4}},
		{Name: "depth", Kind: space.Ordinal, Values: []float64{1}},
		{Name: "learning_rate_init", Kind: space.Ordinal, Values: []float64{1e-5}},
		{Name: "width", Kind: space.Ordinal, Values: []float64{16, 32}},
	}
	got := tb.Space().Params()
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Kind != want[i].Kind || !slices.Equal(got[i].Values, want[i].Values) {
			t.Errorf("param %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	cfg := func(alpha float64, width any) space.Assignment {
		return space.Assignment{"alpha": alpha, "batch_size": 4, "depth": 1.0, "learning_rate_init": 1e-5, "width": width}
	}
	for _, tc := range []struct {
		a    space.Assignment
		want float64
	}{
		{cfg(1e-3, 16.0), 0.4},
		{cfg(1e-4, 16), 0.15}, // mean over the two seeds present; int values are fine for Ordinal
		{cfg(1e-3, 32.0), 0.8},
		{cfg(1e-4, 32.0), 0.03},
	} {
		if v, err := tb.Objective(tc.a, false, nil); err != nil || !near(v, tc.want, 1e-12) {
			t.Errorf("Objective(%v) = %v, %v; want %v", tc.a, v, err, tc.want)
		}
	}
	if !near(tb.Optimum(), 0.03, 1e-12) || tb.describe(tb.Best()) != tb.describe(cfg(1e-4, 32.0)) {
		t.Errorf("Optimum, Best = %v, %v; want 0.03 at alpha 1e-4, width 32", tb.Optimum(), tb.Best())
	}

	// Noisy draws come only from the seeds a configuration has.
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[float64]int{}
	for range 1000 {
		v, err := tb.Objective(cfg(1e-4, 16.0), true, rng)
		if err != nil {
			t.Fatal(err)
		}
		seen[math.Round(v*1e9)/1e9]++
	}
	if len(seen) != 2 || seen[0.2] < 400 || seen[0.1] < 400 {
		t.Errorf("noisy draws of a two-seed configuration: %v; want about 500 each of 0.2 and 0.1", seen)
	}

	for _, bad := range []space.Assignment{
		cfg(1e-5, 16.0), // alpha not in the grid
		cfg(1e-4, "16"), // wrong type
		{"alpha": 1e-4}, // missing parameters
		{"alpha": 1e-4, "batch_size": 4, "depth": 1, "learning_rate_init": 1e-5, "width": 16, "extra": 1},
	} {
		if _, err := tb.Objective(bad, true, rng); !errors.Is(err, ErrNotInTable) || !strings.Contains(err.Error(), "hpobench-small") {
			t.Errorf("Objective(%v): error %v, want ErrNotInTable naming the table", bad, err)
		}
		if _, ok := tb.TestRegret(bad); ok {
			t.Errorf("TestRegret(%v) is ok", bad)
		}
	}
}

func TestFCNetCategories(t *testing.T) {
	const csv = "activation_fn_1,activation_fn_2,batch_size,dropout_1,dropout_2,init_lr,lr_schedule,n_units_1,n_units_2,seed0,seed1\n" +
		"tanh,relu,8,0.0,0,0.1,cosine,16,16,0.5,0.7\n" +
		"relu,relu,8,0.0,0,0.1,cosine,16,16,0.25,0.5\n"
	tb, err := Load(FCNet, writeFile(t, "tiny.csv", csv))
	if err != nil {
		t.Fatal(err)
	}
	p := tb.Space().Param(0)
	if p.Kind != space.Categorical || !slices.Equal(p.Choices, []string{"tanh", "relu"}) {
		t.Errorf("activation_fn_1 = %+v, want categorical [tanh relu] (order of first appearance)", p)
	}
	if tb.Optimum() != 0.375 || tb.Best()["activation_fn_1"] != "relu" {
		t.Errorf("Optimum, Best = %v, %v; want 0.375 with relu", tb.Optimum(), tb.Best())
	}
}

// nb201CSV writes a complete synthetic NB201 table: cell id has validation
// accuracies 50 + id/1000 + k/10 (seed2 missing for even ids) and test
// accuracy 60 + id/1000. edit may change the rows before they are written.
func nb201CSV(edit func(rows []string) []string) string {
	rows := make([]string, 0, nb201Cells)
	for id := range nb201Cells {
		var ops [6]int
		for i, x := 5, id; i >= 0; i-- {
			ops[i], x = x%5, x/5
		}
		base := 50 + float64(id)/1000
		s2, mean := fmt.Sprint(base+0.2), base+0.1
		if id%2 == 0 {
			s2, mean = "", base+0.05
		}
		rows = append(rows, fmt.Sprintf("%d,%s,%v,%v,%s,%v,%v,", id, archString(ops), base, base+0.1, s2, mean, 60+float64(id)/1000))
	}
	if edit != nil {
		rows = edit(rows)
	}
	return "index,arch,valid_acc_seed0,valid_acc_seed1,valid_acc_seed2,valid_acc_mean,test_acc,test_acc_12ep\n" + strings.Join(rows, "\n") + "\n"
}

func TestNB201Table(t *testing.T) {
	tb, err := Load(NB201, writeFile(t, "synthetic.csv", nb201CSV(nil)))
	if err != nil {
		t.Fatal(err)
	}
	if tb.Name() != "nb201-synthetic" || tb.Len() != nb201Cells || tb.Space().Len() != 6 {
		t.Fatalf("Name, Len, params = %s, %d, %d", tb.Name(), tb.Len(), tb.Space().Len())
	}
	// The last cell (all avg_pool_3x3) has the best test accuracy but, with
	// two runs, not the best validation mean: the one before it does.
	last := nb201Cells - 1
	a := tb.assignment(last)
	if a["edge_1_0"] != "avg_pool_3x3" || a["edge_3_2"] != "avg_pool_3x3" {
		t.Errorf("assignment(last) = %v, want avg_pool_3x3 everywhere", a)
	}
	if r, ok := tb.TestRegret(a); !ok || r != 0 {
		t.Errorf("TestRegret(best test cell) = %v, %v; want 0, true", r, ok)
	}
	best := tb.Best()
	if tb.describe(best) != tb.describe(tb.assignment(last-1)) || best["edge_3_2"] != "nor_conv_3x3" {
		t.Errorf("Best() = %v, want cell %d", best, last-1)
	}
	base := 50 + float64(last-1)/1000
	if v, _ := tb.Objective(best, false, nil); !near(v, 100-(base+0.1), 1e-9) || v != tb.Optimum() {
		t.Errorf("Objective(best) = %v, Optimum %v; want %v", v, tb.Optimum(), 100-(base+0.1))
	}
	if r, ok := tb.TestRegret(best); !ok || !near(r, 0.001, 1e-9) {
		t.Errorf("TestRegret(best validation cell) = %v, %v; want 0.001, true", r, ok)
	}
	if acc, ok := tb.BestTestAccuracy(); !ok || !near(acc, 60+float64(last)/1000, 1e-12) {
		t.Errorf("BestTestAccuracy = %v, %v", acc, ok)
	}
	a0 := tb.assignment(0)
	if r, ok := tb.TestRegret(a0); !ok || !near(r, float64(last)/1000, 1e-9) {
		t.Errorf("TestRegret(cell 0) = %v, %v; want %v", r, ok, float64(last)/1000)
	}
	// Cell 0 has two runs: noisy draws never see the empty seed2.
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		v, _ := tb.Objective(a0, true, rng)
		if !near(v, 50, 1e-9) && !near(v, 49.9, 1e-9) {
			t.Fatalf("noisy draw of cell 0 = %v, want 50 or 49.9", v)
		}
	}
}

// Index returns the file's index column, whatever the row order, for
// joins with other NB201 data; TestAccuracy the cell's test accuracy.
func TestNB201IndexAndTestAccuracy(t *testing.T) {
	last := nb201Cells - 1
	reversed := nb201CSV(func(rows []string) []string {
		for id, r := range rows {
			_, rest, _ := strings.Cut(r, ",")
			rows[id] = fmt.Sprintf("%d,%s", last-id, rest)
		}
		return rows
	})
	lines := strings.Split(strings.TrimSuffix(reversed, "\n"), "\n")
	for i, l := range lines {
		_, lines[i], _ = strings.Cut(l, ",")
	}
	noIndex := strings.Join(lines, "\n") + "\n"
	for _, c := range []struct {
		name, csv string
		hasIndex  bool
	}{{"reversed.csv", reversed, true}, {"noindex.csv", noIndex, false}} {
		tb, err := Load(NB201, writeFile(t, c.name, c.csv))
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []int{0, 7, 4321, last} {
			a := tb.assignment(id)
			k, ok := tb.Index(a)
			if ok != c.hasIndex || (ok && k != last-id) {
				t.Errorf("%s: Index(cell %d) = %d, %v; want %d, %v", c.name, id, k, ok, last-id, c.hasIndex)
			}
			if acc, ok := tb.TestAccuracy(a); !ok || !near(acc, 60+float64(id)/1000, 1e-12) {
				t.Errorf("%s: TestAccuracy(cell %d) = %v, %v", c.name, id, acc, ok)
			}
		}
		if _, ok := tb.Index(space.Assignment{"edge_1_0": "conv"}); ok {
			t.Errorf("%s: Index of a non-cell ok", c.name)
		}
		if _, ok := tb.TestAccuracy(space.Assignment{}); ok {
			t.Errorf("%s: TestAccuracy of a non-cell ok", c.name)
		}
	}
}

// TestNoisyRealTable checks on real cells that noisy draws are the seed
// values, all of them, about equally often, repeatably per seed, and that
// their mean is the deterministic objective.
func TestNoisyRealTable(t *testing.T) {
	for _, f := range []struct {
		kind Kind
		rel  string
	}{{NB201, "nb201/cifar10.csv"}, {HPOBench, "hpobench-mlp/credit_g.csv"}, {FCNet, "fcnet/protein_structure.csv"}} {
		t.Run(f.rel, func(t *testing.T) {
			tb := loadReal(t, f.kind, f.rel)
			for _, id := range []int{0, 1, tb.best, tb.Len() - 1} {
				a := tb.assignment(id)
				var seeds []float64
				for _, v := range tb.vals[id*tb.nseed : (id+1)*tb.nseed] {
					if !math.IsNaN(v) {
						seeds = append(seeds, v)
					}
				}
				mean, _ := tb.Objective(a, false, nil)
				sum := 0.0
				for _, v := range seeds {
					sum += v
				}
				if !near(mean, sum/float64(len(seeds)), 1e-12*math.Abs(mean)) {
					t.Errorf("cell %d: mean objective %v, mean of seeds %v", id, mean, sum/float64(len(seeds)))
				}
				const n = 3000
				draws := func(seed uint64) []float64 {
					rng := rand.New(rand.NewPCG(seed, 7))
					out := make([]float64, n)
					for i := range out {
						out[i], _ = tb.Objective(a, true, rng)
					}
					return out
				}
				d := draws(1)
				if !slices.Equal(d, draws(1)) {
					t.Errorf("cell %d: noisy draws differ for the same seed", id)
				}
				count := map[float64]int{}
				for _, v := range d {
					if !slices.Contains(seeds, v) {
						t.Fatalf("cell %d: noisy draw %v is none of the seed values %v", id, v, seeds)
					}
					count[v]++
				}
				for _, v := range seeds {
					m := 0 // seeds with equal values share their draws
					for _, w := range seeds {
						if w == v {
							m++
						}
					}
					p := float64(m) / float64(len(seeds))
					if sd := math.Sqrt(n * p * (1 - p)); math.Abs(float64(count[v])-n*p) > 5*sd+0.5 {
						t.Errorf("cell %d: value %v drawn %d of %d times, want about %.0f", id, v, count[v], n, n*p)
					}
				}
			}
		})
	}
}

func TestParseSpec(t *testing.T) {
	for _, tc := range []struct {
		in, kind, path, err string
	}{
		{in: "nb201:../shared/data/nb201/cifar10.csv", kind: "nb201", path: "../shared/data/nb201/cifar10.csv"},
		{in: "hpobench:car.csv", kind: "hpobench", path: "car.csv"},
		{in: "FCNet:C:/data/naval.csv", kind: "fcnet", path: "C:/data/naval.csv"},
		{in: "", err: "want KIND:PATH"},
		{in: "cifar10.csv", err: "want KIND:PATH"},
		{in: "nb101:x.csv", err: `unknown table kind "nb101"; want one of nb201, hpobench, fcnet`},
		{in: "nb201:", err: "the path after \"nb201:\" is empty"},
		{in: "nb201: ", err: "is empty"},
	} {
		kind, path, err := ParseSpec(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), fmt.Sprintf("%q", tc.in)) {
				t.Errorf("ParseSpec(%q) error = %v, want one quoting the argument and containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || string(kind) != tc.kind || path != tc.path {
			t.Errorf("ParseSpec(%q) = %q, %q, %v; want %q, %q", tc.in, kind, path, err, tc.kind, tc.path)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load("nb101", "x.csv"); err == nil || !strings.Contains(err.Error(), "unknown table kind") {
		t.Errorf("Load(nb101) error = %v", err)
	}
	if tb, err := Load("HPOBench", writeFile(t, "small.csv", smallHPO)); err != nil || tb.Kind != HPOBench {
		t.Errorf("Load(HPOBench in capitals) = %v, %v", tb, err)
	}
	missing := filepath.Join(t.TempDir(), "none.csv")
	if _, err := Load(FCNet, missing); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("Load(missing file) error = %v, want one naming %s", err, missing)
	}
}
