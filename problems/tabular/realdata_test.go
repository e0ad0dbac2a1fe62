package tabular

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/space"
)

// dataDir is ../shared/data seen from the repository root.
const dataDir = "../../../shared/data"

// dataPath returns the path of a file of the shared data, or skips the test.
func dataPath(tb testing.TB, rel string) string {
	p := filepath.Join(dataDir, rel)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("benchmark data %s is absent (%v); the tests of the real tables need ../shared/data beside the repository", p, err)
	}
	return p
}

var realTables = map[string]*Table{}

// loadReal loads a real table once per test binary.
func loadReal(tb testing.TB, kind Kind, rel string) *Table {
	p := dataPath(tb, rel)
	if t, ok := realTables[p]; ok {
		return t
	}
	t, err := Load(kind, p)
	if err != nil {
		tb.Fatalf("Load(%s, %s): %v", kind, p, err)
	}
	realTables[p] = t
	return t
}

// rawCSV reads a file without the loader, for the README values the loader
// does not keep (index order, 12-epoch accuracies, raw first rows).
func rawCSV(t *testing.T, path string) (header []string, rows [][]string, sum string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(b)
	recs, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[0], recs[1:], hex.EncodeToString(h[:])
}

// stats summarises the per-seed values of a table, turned back into the
// file's units by raw.
type stats struct {
	lo, hi, mean float64
	count        map[int]int // configurations by number of seeds present
}

func seedStats(t *Table, raw func(float64) float64) stats {
	s := stats{lo: math.Inf(1), hi: math.Inf(-1), count: map[int]int{}}
	sum, n := 0.0, 0
	for id := range t.Len() {
		c := 0
		for _, v := range t.vals[id*t.nseed : (id+1)*t.nseed] {
			if math.IsNaN(v) {
				continue
			}
			v = raw(v)
			s.lo, s.hi = min(s.lo, v), max(s.hi, v)
			sum += v
			n++
			c++
		}
		s.count[c]++
	}
	s.mean = sum / float64(n)
	return s
}

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

func TestNB201Sanity(t *testing.T) {
	for _, tc := range []struct {
		file                        string
		bestTest, minTest, meanTest float64
		bestIndex                   int
		bestArch                    string
		bestValid, bestSingle       float64
		best12                      float64
		best12Index                 int
		firstRow, sum               string
	}{
		{"cifar10.csv", 94.37333333333333, 10.0, 87.062931, 6111,
			"|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|skip_connect~0|nor_conv_3x3~1|nor_conv_1x1~2|",
			91.60666665039064, 91.71999999023437, 89.16, 5374,
			"0,|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|,82.09199998291015,81.61599997314453,82.24000001464844,81.98266665690103,85.86333333333334,69.55",
			"a479c51f176a638ed03e7629a3dbf43f4af90fef68a5f7fe1e07e7cb76a8b12e"},
		{"cifar100.csv", 73.51333326009114, 0.9999999987284341, 61.405505, 9930,
			"|nor_conv_3x3~0|+|nor_conv_3x3~0|nor_conv_3x3~1|+|skip_connect~0|nor_conv_3x3~1|nor_conv_3x3~2|",
			73.49333332519531, 73.71999997558594, 61.18000002441406, 2581,
			"0,|avg_pool_3x3~0|+|nor_conv_1x1~0|skip_connect~1|+|nor_conv_1x1~0|skip_connect~1|skip_connect~2|,51.87999996948242,53.07999993286133,53.13999993896484,52.69999994710287,52.913333294677734,31.259999963378903",
			"24119dd122259e195b735b22f33230c80a66f7e18744503d878493d7fa0066d3"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tb := loadReal(t, NB201, filepath.Join("nb201", tc.file))
			_, rows, sum := rawCSV(t, filepath.Join(dataDir, "nb201", tc.file))
			if sum != tc.sum {
				t.Errorf("sha256 = %s, README says %s: the data is not the documented version", sum, tc.sum)
			}
			if tb.Len() != 15625 || len(rows) != 15625 || tb.Seeds() != 3 {
				t.Errorf("Len = %d, rows = %d, Seeds = %d; want 15625, 15625, 3", tb.Len(), len(rows), tb.Seeds())
			}
			if got := strings.Join(rows[0], ","); got != tc.firstRow {
				t.Errorf("first data row = %s, want %s", got, tc.firstRow)
			}
			best12, best12At := math.Inf(-1), -1
			for i, r := range rows {
				if r[0] != strconv.Itoa(i) {
					t.Fatalf("row %d has index %s; README: index is 0..15624 in order", i, r[0])
				}
				if v, _ := strconv.ParseFloat(r[7], 64); v > best12 {
					best12, best12At = v, i
				}
			}
			if best12 != tc.best12 || best12At != tc.best12Index {
				t.Errorf("max test_acc_12ep = %v at %d, want %v at %v", best12, best12At, tc.best12, tc.best12Index)
			}
			if rows[tc.bestIndex][1] != tc.bestArch {
				t.Errorf("arch of index %d = %s, want %s", tc.bestIndex, rows[tc.bestIndex][1], tc.bestArch)
			}

			st := seedStats(tb, func(v float64) float64 { return 100 - v })
			if st.count[3] != 8169 || st.count[2] != 7456 || len(st.count) != 2 {
				t.Errorf("cells by number of runs = %v, want 3: 8169, 2: 7456", st.count)
			}
			if !near(st.hi, tc.bestSingle, 1e-11) {
				t.Errorf("max single-run validation accuracy = %v, want %v", st.hi, tc.bestSingle)
			}
			acc, ok := tb.BestTestAccuracy()
			if !ok || acc != tc.bestTest {
				t.Errorf("BestTestAccuracy = %v, %v; want %v", acc, ok, tc.bestTest)
			}
			lo, mean := math.Inf(1), 0.0
			for _, v := range tb.test {
				lo, mean = min(lo, v), mean+v/float64(len(tb.test))
			}
			if lo != tc.minTest || !near(mean, tc.meanTest, 5e-7) {
				t.Errorf("min, mean test_acc = %v, %v; want %v, %v", lo, mean, tc.minTest, tc.meanTest)
			}
			if !near(100-tb.Optimum(), tc.bestValid, 1e-11) {
				t.Errorf("best validation accuracy = %v, want %v", 100-tb.Optimum(), tc.bestValid)
			}
			// The best validation cell is index 6111 resp. 9930, which is also the best test cell.
			best := tb.Best()
			ops, msg := parseArch(tc.bestArch)
			for i, e := range graph.NB201EdgeNames {
				if msg != "" || best[e] != nb201Ops[ops[i]] {
					t.Fatalf("Best() = %v, want the cell %s", best, tc.bestArch)
				}
			}
			if r, ok := tb.TestRegret(best); !ok || r != 0 {
				t.Errorf("TestRegret(best cell) = %v, %v; want 0, true", r, ok)
			}
			checkRow(t, tb, rows[0], 2, 3, func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return 100 - v })
		})
	}
}

// checkRow checks that the loader's values of the configuration in a raw
// row equal the row's seed columns from seedAt on, as objectives.
func checkRow(t *testing.T, tb *Table, row []string, seedAt, nseed int, obj func(string) float64) {
	t.Helper()
	var a map[string]any
	if tb.Kind == NB201 {
		ops, msg := parseArch(row[1])
		if msg != "" {
			t.Fatal(msg)
		}
		a = map[string]any{}
		for i, e := range graph.NB201EdgeNames {
			a[e] = nb201Ops[ops[i]]
		}
	} else {
		a = map[string]any{}
		for i, p := range tb.params {
			if p.Kind == space.Categorical {
				a[p.Name] = row[i]
			} else {
				v, _ := strconv.ParseFloat(row[i], 64)
				a[p.Name] = v
			}
		}
	}
	id, err := tb.id(a)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for k := range nseed {
		want := obj(row[seedAt+k])
		if got := tb.vals[id*tb.nseed+k]; got != want {
			t.Errorf("seed %d of the first row = %v, want %v", k, got, want)
		}
		sum += want
	}
	if got, _ := tb.Objective(a, false, nil); !near(got, sum/float64(nseed), 1e-12) {
		t.Errorf("seed-mean objective of the first row = %v, want %v", got, sum/float64(nseed))
	}
}

// gridCase is the README sanity block of one HPOBench or FCNet file.
type gridCase struct {
	file                string
	best                float64 // best seed mean, in the file's units
	ties, line          int     // configurations attaining it; line of the first
	config              string  // its hyperparameters as in the file
	bestSingle, worst   float64
	mean                float64
	firstRow, sha256sum string
}

func TestHPOBenchSanity(t *testing.T) {
	testGrid(t, HPOBench, "hpobench-mlp", 30000, 5, func(v float64) float64 { return 1 - v }, []gridCase{
		{"australian.csv", 0.9446693657219972, 2, 15520, "0.00027825593,6,3,3.5938137e-05,645",
			0.9725756699440911, 0.26470021206863315, 0.841589915,
			"1e-08,4,1,1e-05,16,0.8232118758434548,0.8385868517447465,0.8298149219201851,0.8506844033159822,0.8078368999421631",
			"6e97c3ea4170b28e9b1e6f88bacd0a3adf4e4f9e9ec6e4e7f096d3c40fc64a6c"},
		{"blood_transfusion.csv", 0.74669256381798, 1, 3838, "7.742637e-08,10,3,0.0004641589,256",
			0.7837402885682574, 0.34961154273029965, 0.598381443,
			"1e-08,4,1,1e-05,16,0.5324639289678136,0.5064927857935627,0.5324639289678136,0.49117647058823527,0.5",
			"0c6db1bca8b23fa6e6320090d482297bf86c1b240401d4a437835404524fae56"},
		{"car.csv", 1.0, 44, 1458, "1e-08,25,3,0.0059948424,256",
			1.0, 0.16030701754385965, 0.744216602,
			"1e-08,4,1,1e-05,16,0.4440058479532164,0.4479166666666667,0.44652777777777775,0.4550438596491228,0.45807748538011694",
			"2bfb57c66f1cd81f301f797c5ac2f45b94c9fe88f42896ecdf944796f8933dbb"},
		{"credit_g.csv", 0.8852744165946413, 1, 20356, "0.0021544348,101,3,0.0059948424,101",
			0.9294241573033708, 0.315173941227312, 0.737414014,
			"1e-08,4,1,1e-05,16,0.6597612359550562,0.6084161624891962,0.6637856525496975,0.6341022039757995,0.6469047104580813",
			"a7685e839b2c413ba341bc8e3e179f299c377894fa9611829715329b984b0ff2"},
	})
}

func TestFCNetSanity(t *testing.T) {
	testGrid(t, FCNet, "fcnet", 62208, 4, func(v float64) float64 { return v }, []gridCase{
		{"protein_structure.csv", 0.221378855407238, 1, 469, "relu,relu,8,0.0,0.3,0.0005,cosine,512,512",
			0.22013874351978302, 1951.0072021484375, 0.556152212,
			"relu,relu,8,0.0,0.0,0.0005,cosine,16,16,0.341951459646225,0.34103745222091675,0.33918553590774536,0.33868858218193054",
			"fbf3e36986287250a031f5a57778df45561bf2d0940e0f3042ddfd77165d746f"},
		{"naval_propulsion.csv", 3.19113473778998e-05, 1, 31129, "tanh,relu,8,0.0,0.0,0.0005,cosine,128,512",
			2.47925563598983e-05, 28107.0625, 0.701606173,
			"relu,relu,8,0.0,0.0,0.0005,cosine,16,16,0.0017682454781606793,0.0020040383096784353,0.0027845464646816254,0.0016481878701597452",
			"557da46722e602c16b01059086b38ffabbea1f852f8076ec092a68fe1230ed56"},
	})
}

// testGrid checks the README values of grid tables. raw maps an objective
// back to the file's units (its own inverse for both kinds).
func testGrid(t *testing.T, kind Kind, dir string, nrows, nseed int, raw func(float64) float64, cases []gridCase) {
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			tb := loadReal(t, kind, filepath.Join(dir, tc.file))
			_, rows, sum := rawCSV(t, filepath.Join(dataDir, dir, tc.file))
			if sum != tc.sha256sum {
				t.Errorf("sha256 = %s, README says %s: the data is not the documented version", sum, tc.sha256sum)
			}
			if tb.Len() != nrows || len(rows) != nrows || tb.Seeds() != nseed {
				t.Errorf("Len = %d, rows = %d, Seeds = %d; want %d, %d, %d", tb.Len(), len(rows), tb.Seeds(), nrows, nrows, nseed)
			}
			if got := strings.Join(rows[0], ","); got != tc.firstRow {
				t.Errorf("first data row = %s, want %s", got, tc.firstRow)
			}
			np := tb.Space().Len()
			checkRow(t, tb, rows[0], np, nseed, func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return raw(v) })

			if got := raw(tb.Optimum()); !near(got, tc.best, 1e-12*max(1, tc.best)) {
				t.Errorf("best seed mean = %v, want %v", got, tc.best)
			}
			ties, first := 0, -1
			for id, m := range tb.mean {
				if near(m, tb.Optimum(), 1e-12*max(1, math.Abs(m))) {
					ties++
					if first < 0 {
						first = id
					}
				}
			}
			// Rows are sorted by grid index, so line L holds id L − 2.
			if ties != tc.ties || first+2 != tc.line || tb.best != first {
				t.Errorf("best seed mean attained by %d configurations, first on line %d (Best on %d); want %d on line %d",
					ties, first+2, tb.best+2, tc.ties, tc.line)
			}
			if got := strings.Join(rows[tc.line-2][:np], ","); got != tc.config {
				t.Errorf("line %d = %s, want %s", tc.line, got, tc.config)
			}
			if got := tb.describe(tb.Best()); got != describeRaw(tb, tc.config) {
				t.Errorf("Best() = %s, want %s", got, tc.config)
			}
			st := seedStats(tb, raw)
			bestSingle, worst := st.hi, st.lo
			if kind == FCNet {
				bestSingle, worst = st.lo, st.hi
			}
			if !near(bestSingle, tc.bestSingle, 1e-15*max(1, tc.bestSingle)) || !near(worst, tc.worst, 1e-15*max(1, tc.worst)) ||
				!near(st.mean, tc.mean, 5e-10) || st.count[nseed] != nrows {
				t.Errorf("best, worst single value, mean of all = %v, %v, %v (configurations by seeds: %v); want %v, %v, %v",
					bestSingle, worst, st.mean, st.count, tc.bestSingle, tc.worst, tc.mean)
			}
			if _, ok := tb.TestRegret(tb.Best()); ok {
				t.Errorf("TestRegret is ok on a %s table", kind)
			}
			if _, ok := tb.BestTestAccuracy(); ok {
				t.Errorf("BestTestAccuracy is ok on a %s table", kind)
			}
		})
	}
}

// describeRaw writes a comma-separated configuration as describe does.
func describeRaw(tb *Table, config string) string {
	parts := strings.Split(config, ",")
	a := map[string]any{}
	for i, p := range tb.params {
		if v, err := strconv.ParseFloat(parts[i], 64); err == nil {
			a[p.Name] = v
		} else {
			a[p.Name] = parts[i]
		}
	}
	return tb.describe(a)
}

func BenchmarkLoad(b *testing.B) {
	for _, f := range []struct {
		kind Kind
		rel  string
	}{
		{NB201, "nb201/cifar10.csv"}, {NB201, "nb201/cifar100.csv"},
		{HPOBench, "hpobench-mlp/australian.csv"}, {HPOBench, "hpobench-mlp/blood_transfusion.csv"},
		{HPOBench, "hpobench-mlp/car.csv"}, {HPOBench, "hpobench-mlp/credit_g.csv"},
		{FCNet, "fcnet/naval_propulsion.csv"}, {FCNet, "fcnet/protein_structure.csv"},
	} {
		b.Run(strings.TrimSuffix(f.rel, ".csv"), func(b *testing.B) {
			p := dataPath(b, f.rel)
			for b.Loop() {
				if _, err := Load(f.kind, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkObjective(b *testing.B) {
	tb := loadReal(b, FCNet, "fcnet/naval_propulsion.csv")
	a := tb.Best()
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if _, err := tb.Objective(a, true, rng); err != nil {
			b.Fatal(err)
		}
	}
}
