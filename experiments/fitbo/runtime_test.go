package fitbo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/boaopt/boa/acq"
	"github.com/boaopt/boa/gp"
	"github.com/boaopt/boa/kernel"
	"github.com/boaopt/boa/qmc"
)

// The grids of the runtime study [000 §3.3.2; spec §9.2]: M at d = 2, d at
// M = 400.
var (
	gridM = []int{100, 300, 500, 700, 900}
	gridD = []int{2, 4, 6, 8, 10}
)

// BenchmarkRuntime times each method's evaluation at the 100 test points
// on every cell of both grids (one initialisation per cell; the table
// printer below repeats over initialisations).
func BenchmarkRuntime(b *testing.B) {
	cells := map[[2]int]bool{}
	for _, m := range gridM {
		cells[[2]int{2, m}] = true
	}
	for _, d := range gridD {
		cells[[2]int{d, 400}] = true
	}
	for _, key := range sortedCells(cells) {
		c, err := NewCell(key[0], key[1], 1)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]float64, test)
		for _, method := range Methods {
			b.Run(fmt.Sprintf("d=%d/M=%d/%s", key[0], key[1], method), func(b *testing.B) {
				for range b.N {
					c.Eval(method, out)
				}
			})
		}
	}
}

func sortedCells(cells map[[2]int]bool) [][2]int {
	var out [][2]int
	for _, d := range gridD {
		for _, m := range append(gridM, 400) {
			if cells[[2]int{d, m}] {
				out = append(out, [2]int{d, m})
				delete(cells, [2]int{d, m})
			}
		}
	}
	return out
}

// TestRuntimeTables prints Tables 3.1 and 3.2 in their format (seconds for
// 100 inputs, mean ± std over initialisations, with testing.Benchmark
// timing each evaluation) for every method, and the relative acceptance
// lines of spec §9.2 as measured: FITBO-MM / PI at every point, the R² of
// a straight line in M, the change from d = 2 to d = 10, FITBO / MES at
// d ≥ 6. It reports; timing never fails a test. BOA_REPRO=1 runs it
// (about 10 minutes with BOA_RUNTIME_INITS=10 initialisations per cell;
// the thesis used 100).
func TestRuntimeTables(t *testing.T) {
	if os.Getenv("BOA_REPRO") != "1" {
		t.Skip("the runtime study: BOA_REPRO=1 go test ./experiments/fitbo -run TestRuntimeTables -v")
	}
	inits := 10
	if v := os.Getenv("BOA_RUNTIME_INITS"); v != "" {
		fmt.Sscan(v, &inits)
	}
	measure := func(d, M int) map[string][2]float64 {
		times := map[string][]float64{}
		for seed := range inits {
			c, err := NewCell(d, M, uint64(seed+1))
			if err != nil {
				t.Fatal(err)
			}
			out := make([]float64, test)
			for _, method := range Methods {
				r := testing.Benchmark(func(b *testing.B) {
					for range b.N {
						c.Eval(method, out)
					}
				})
				times[method] = append(times[method], float64(r.NsPerOp())/1e9)
			}
		}
		res := map[string][2]float64{}
		for m, v := range times {
			mean, sd := stat.MeanStdDev(v, nil)
			res[m] = [2]float64{mean, sd}
		}
		return res
	}
	table := func(title, key string, keys []int, rows []map[string][2]float64) {
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n| %s |", title, key)
		for _, m := range Methods {
			fmt.Fprintf(&b, " %s |", m)
		}
		b.WriteString(" FITBO-MM / PI | FITBO / MES |\n|---|")
		for range len(Methods) + 2 {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		for i, r := range rows {
			fmt.Fprintf(&b, "| %d |", keys[i])
			for _, m := range Methods {
				fmt.Fprintf(&b, " %.3g (±%.2g) |", r[m][0], r[m][1])
			}
			fmt.Fprintf(&b, " %.2f | %.2f |\n", r["FITBO-MM"][0]/r["PI"][0], r["FITBO"][0]/r["MES"][0])
		}
		t.Log("\n" + b.String())
	}
	var byM, byD []map[string][2]float64
	for _, M := range gridM {
		byM = append(byM, measure(2, M))
	}
	for _, d := range gridD {
		byD = append(byD, measure(d, 400))
	}
	table("Table 3.1: seconds for 100 2-D inputs, M samples (mean ± std over initialisations)", "M", gridM, byM)
	table("Table 3.2: seconds for 100 inputs of dimension d, M = 400", "d", gridD, byD)
	xs := make([]float64, len(gridM))
	for i, M := range gridM {
		xs[i] = float64(M)
	}
	for _, m := range Methods {
		ys := make([]float64, len(byM))
		for i, r := range byM {
			ys[i] = r[m][0]
		}
		a, b := stat.LinearRegression(xs, ys, nil, false)
		r2 := stat.RSquared(xs, ys, nil, a, b)
		change := byD[len(byD)-1][m][0]/byD[0][m][0] - 1
		t.Logf("%-8s linear in M: R² = %.4f; d = 2 → 10: %+.1f %%", m, r2, 100*change)
	}
	worst := 0.0
	for _, r := range append(byM, byD...) {
		worst = math.Max(worst, r["FITBO-MM"][0]/r["PI"][0])
	}
	t.Logf("FITBO-MM / PI, largest over both grids: %.2f (acceptance ≤ 1.2)", worst)
}

// BenchmarkMESMinima times what the runtime study leaves out of MES's
// evaluation: drawing its minimum values, one random-Fourier-feature path
// per θ-sample minimised over 1,000 candidates (spec §4.4–4.5), here for
// 20 samples (the study's M = 400 costs 20 times as much).
func BenchmarkMESMinima(b *testing.B) {
	for _, d := range []int{2, 6, 10} {
		rng := rand.New(rand.NewPCG(1, uint64(d)))
		X := qmc.SobolPoints(initial, d, rng)
		y := make([]float64, len(X))
		for i, x := range X {
			y[i] = objective(x)
		}
		k := kernel.NewStationary(kernel.RBF, d, true)
		w, err := gp.SampleWarped(X, y, gp.WarpedConfig{Kernel: k, M: 20, Rand: rng})
		if err != nil {
			b.Fatal(err)
		}
		models, err := gp.Models(X, y, k, w.Theta)
		if err != nil {
			b.Fatal(err)
		}
		lo, hi := make([]float64, d), make([]float64, d)
		for i := range hi {
			hi[i] = 1
		}
		cands := qmc.SobolPoints(1000, d, rng)
		b.Run(fmt.Sprintf("d=%d/M=20", d), func(b *testing.B) {
			for range b.N {
				for _, m := range models {
					p, err := m.SamplePath(0, rng)
					if err != nil {
						b.Fatal(err)
					}
					if _, _, err := acq.MinimizePath(p, cands, lo, hi, 0); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
