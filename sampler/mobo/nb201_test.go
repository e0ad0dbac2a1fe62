package mobo

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/pareto"
	"github.com/boaopt/boa/sampler"
	"github.com/boaopt/boa/sampler/internal/samplertest"
)

// dataDir is ../shared/data beside the repository.
const dataDir = "../../../shared/data/"

// nb201Objectives reads every NAS-Bench-201 cell's CIFAR-10 validation
// error (100 − valid_acc_mean, percent [../shared/data/nb201]) and its
// latency on the Pixel 2 (ms [../shared/data/nb201-latency]), by arch
// string; the two tables list the cells in the same order.
func nb201Objectives(t *testing.T) map[string][]float64 {
	read := func(path string) [][]string {
		f, err := os.Open(path)
		if err != nil {
			t.Skipf("%v; this test needs ../shared/data beside the repository", err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	acc, lat := read(dataDir+"nb201/cifar10.csv"), read(dataDir+"nb201-latency/latency.csv")
	ai, li := slices.Index(acc[0], "valid_acc_mean"), slices.Index(lat[0], "pixel2")
	if ai < 0 || li < 0 || len(acc) != len(lat) {
		t.Fatal("unexpected NB201 tables")
	}
	out := map[string][]float64{}
	for i := 1; i < len(acc); i++ {
		if acc[i][1] != lat[i][1] {
			t.Fatalf("row %d: cell %s against %s", i, acc[i][1], lat[i][1])
		}
		a, err1 := strconv.ParseFloat(acc[i][ai], 64)
		l, err2 := strconv.ParseFloat(lat[i][li], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %d: %v %v", i, err1, err2)
		}
		out[acc[i][1]] = []float64{100 - a, l}
	}
	return out
}

// On NB201 accuracy against latency (the Pixel 2), with the hypervolume
// at 1.1 after normalising each objective by the true front's ideal and
// nadir points, mobo's median over MOBO_SEEDS seeds (3) at 100
// evaluations is above random search's; the figures are in
// docs/samplers.md, "mobo".
func TestNB201AccuracyLatency(t *testing.T) {
	if testing.Short() {
		t.Skip("a minute of GP fits")
	}
	table := nb201Objectives(t)
	var all [][]float64
	for _, y := range table {
		all = append(all, y)
	}
	lo, hi := []float64{math.Inf(1), math.Inf(1)}, []float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range pareto.Nondominated(all) {
		for k, v := range p {
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	ref := []float64{1.1, 1.1}
	normalise := func(y []float64) []float64 {
		return []float64{(y[0] - lo[0]) / (hi[0] - lo[0]), (y[1] - lo[1]) / (hi[1] - lo[1])}
	}
	var front [][]float64
	for _, p := range pareto.Nondominated(all) {
		front = append(front, normalise(p))
	}
	sp := graph.NB201Space()
	run := func(s sampler.Sampler, seed uint64) (float64, time.Duration) {
		ys, slowest := explore(t, s, sp, 2, 100, seed, func(u []float64) []float64 {
			a := sp.Decode(u)
			arch := fmt.Sprintf("|%s~0|+|%s~0|%s~1|+|%s~0|%s~1|%s~2|", a["edge_1_0"], a["edge_2_0"], a["edge_2_1"], a["edge_3_0"], a["edge_3_1"], a["edge_3_2"])
			y, ok := table[arch]
			if !ok {
				t.Fatalf("no cell %s", arch)
			}
			return y
		})
		for i := range ys {
			ys[i] = normalise(ys[i])
		}
		return pareto.Hypervolume(ys, ref), slowest
	}
	var ours, theirs []float64
	var slowest time.Duration
	for seed := range samplertest.EnvInt("MOBO_SEEDS", 3) {
		hv, slow := run(New(), uint64(seed+1))
		ours, slowest = append(ours, hv), max(slowest, slow)
		r, _ := sampler.New("random")
		hv, _ = run(r, uint64(seed+1))
		theirs = append(theirs, hv)
	}
	mo, ra := samplertest.Median(ours), samplertest.Median(theirs)
	t.Logf("nb201 pixel2: median hypervolume mobo %.4f, random %.4f (front %.4f); mobo %.3f, slowest suggestion %v", mo, ra, pareto.Hypervolume(front, ref), ours, slowest.Round(time.Millisecond))
	if !(mo > ra) {
		t.Errorf("mobo's median hypervolume %.4f is not above random's %.4f", mo, ra)
	}
}
