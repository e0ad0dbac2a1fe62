package attacks

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/stat"

	"github.com/boaopt/boa/attack"
	"github.com/boaopt/boa/attack/image"
	"github.com/boaopt/boa/attack/standin"
)

// ImageProtocol is one run of the image experiment (spec attacks §3).
type ImageProtocol struct {
	Images     int      // correctly classified test images, the first ones
	Targets    int      // targets per image: all 9 other classes, or the first of a seeded shuffle
	Budget     int      // queries per attack
	Delta      float64  // δ_max
	Methods    []string // image.Methods() names
	Candidates int      // acquisition candidates (0: the method's default)
	Seed       uint64   // of the attacks and the target shuffle
}

// CIImages is spec §3's CI version: 5 images × 2 targets, budget 100,
// GP-BO and ADDGP-BO, 2000-point candidate grids.
func CIImages() ImageProtocol {
	return ImageProtocol{Images: 5, Targets: 2, Budget: 100, Delta: 0.3, Methods: []string{"gpbo", "addgp"}, Candidates: 2000, Seed: 1}
}

// FullImages is the protocol of the seed's Tables 6.1–6.2 on the
// stand-in: 50 images × 9 targets, δ_max 0.3, budget 1000, every method,
// with spec §3's 2000-point candidate grids (10,000 make a failed attack
// of 1000 queries take minutes on 2 cores).
func FullImages() ImageProtocol {
	return ImageProtocol{Images: 50, Targets: 9, Budget: 1000, Delta: 0.3, Methods: image.Methods(), Candidates: 2000, Seed: 1}
}

// Instance is one attack of the protocol: a test image and a target.
type Instance struct {
	Index  int // in the victim's test set
	Label  int
	Target int
}

// ImageOutcome is one attack's result.
type ImageOutcome struct {
	Method string
	Instance
	image.Result
	Err error
}

// Instances are the protocol's attacks on the victim: the first p.Images
// test images it classifies correctly, each with p.Targets targets.
func (p ImageProtocol) Instances(v attack.Victim[attack.Image], test []standin.ImageExample) ([]Instance, error) {
	rng := rand.New(rand.NewPCG(p.Seed, 42))
	var out []Instance
	for i, ex := range test {
		if len(out) == p.Images*p.Targets {
			break
		}
		s, err := v.Scores(ex.Image)
		if err != nil {
			return nil, err
		}
		if attack.Class(s) != ex.Label {
			continue
		}
		var others []int
		for c := range s {
			if c != ex.Label {
				others = append(others, c)
			}
		}
		rng.Shuffle(len(others), func(a, b int) { others[a], others[b] = others[b], others[a] })
		for _, t := range others[:min(p.Targets, len(others))] {
			out = append(out, Instance{Index: i, Label: ex.Label, Target: t})
		}
	}
	return out, nil
}

// RunImages attacks every instance with every method on workers
// goroutines (the stand-in answers concurrent queries); the outcomes are
// in the order of instances, then methods, whatever the scheduling. done,
// when set, is called with each outcome as it is known.
func RunImages(v attack.Victim[attack.Image], test []standin.ImageExample, p ImageProtocol, workers int, done func(ImageOutcome)) ([]ImageOutcome, error) {
	inst, err := p.Instances(v, test)
	if err != nil {
		return nil, err
	}
	nm := len(p.Methods)
	return parallel(nm*len(inst), workers, func(j int) ImageOutcome {
		m, in := p.Methods[j%nm], inst[j/nm]
		cfg := image.Config{Method: m, Delta: p.Delta, Budget: p.Budget, Candidates: p.Candidates, Seed: p.Seed + uint64(j/nm)}
		res, err := image.Run(v, test[in.Index].Image, attack.Goal{Origin: in.Label, Target: in.Target}, cfg)
		return ImageOutcome{Method: m, Instance: in, Result: res, Err: err}
	}, done), nil
}

// parallel returns f(0), …, f(n−1), computed on workers goroutines;
// done, when set, is called with each result as it is known, one call at
// a time.
func parallel[O any](n, workers int, f func(j int) O, done func(O)) []O {
	out := make([]O, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range max(1, workers) {
		wg.Go(func() {
			for j := range jobs {
				out[j] = f(j)
				if done != nil {
					mu.Lock()
					done(out[j])
					mu.Unlock()
				}
			}
		})
	}
	for j := range out {
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	return out
}

// ImageRow is one line of a Table 6.1-style table.
type ImageRow struct {
	Method                string
	Attacks, Successes    int
	ASR                   float64 // Successes / Attacks
	Max, Median, Mean, SE float64 // queries of the successful attacks
	L2PerPixel, LinfMax   float64 // mean ‖x_adv − x‖₂ / d over the successes; the largest L∞ of any attack
	Sides                 map[int]int
	Errors                int
}

// ImageTable summarises the outcomes per method, in the protocol's order.
func ImageTable(outs []ImageOutcome) []ImageRow {
	var rows []ImageRow
	at := map[string]int{}
	for _, o := range outs {
		i, ok := at[o.Method]
		if !ok {
			i = len(rows)
			at[o.Method] = i
			rows = append(rows, ImageRow{Method: o.Method, Sides: map[int]int{}})
		}
		r := &rows[i]
		r.Attacks++
		r.LinfMax = max(r.LinfMax, o.Linf)
		if o.Err != nil {
			r.Errors++
			continue
		}
		r.Sides[o.Side]++
		if o.Success {
			r.Successes++
			r.L2PerPixel += o.L2 / float64(o.Input.Len())
		}
	}
	for i := range rows {
		r := &rows[i]
		var q []float64
		for _, o := range outs {
			if o.Method == r.Method && o.Err == nil && o.Success {
				q = append(q, float64(o.Queries))
			}
		}
		r.ASR = float64(r.Successes) / float64(r.Attacks)
		if len(q) > 0 {
			r.Max, r.Median, r.Mean, r.SE = slices.Max(q), median(q), mean(q), stdErr(q)
			r.L2PerPixel /= float64(len(q))
		}
	}
	return rows
}

// WriteImageTable prints rows in the layout of seed 000 Table 6.1: ASR,
// queries of the successes (max, median, mean ± s.e.), the average L2
// perturbation per pixel; with the sides auto-dr ended on.
func WriteImageTable(w io.Writer, rows []ImageRow) {
	fmt.Fprintf(w, "| method | ASR | queries: max, median, mean (± s.e.) | avg L2 per pixel | max L∞ | final side s (count) |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		var sides []string
		keys := make([]int, 0, len(r.Sides))
		for s := range r.Sides {
			keys = append(keys, s)
		}
		sort.Ints(keys)
		for _, s := range keys {
			sides = append(sides, fmt.Sprintf("%d (%d)", s, r.Sides[s]))
		}
		errs := ""
		if r.Errors > 0 {
			errs = fmt.Sprintf(" (%d errors)", r.Errors)
		}
		fmt.Fprintf(w, "| %s | %.0f %% (%d/%d)%s | %.0f, %.0f, %.1f (±%.1f) | %.3g | %.3g | %s |\n",
			r.Method, 100*r.ASR, r.Successes, r.Attacks, errs, r.Max, r.Median, r.Mean, r.SE, r.L2PerPixel, r.LinfMax, strings.Join(sides, ", "))
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func mean(x []float64) float64 { return stat.Mean(x, nil) }

// stdDev is the sample standard deviation, 0 for fewer than 2 values.
func stdDev(x []float64) float64 {
	if len(x) < 2 {
		return 0
	}
	return stat.StdDev(x, nil)
}

func stdErr(x []float64) float64 { return stdDev(x) / math.Sqrt(float64(len(x))) }

// ImageFindings checks the relative findings of spec §3 on the rows: each
// line says what was compared, the numbers, and met or not met.
func ImageFindings(rows []ImageRow) []string {
	by := map[string]ImageRow{}
	for _, r := range rows {
		by[r.Method] = r
	}
	var out []string
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "not met"
	}
	asr := func(a, b string) {
		ra, okA := by[a]
		rb, okB := by[b]
		if okA && okB {
			out = append(out, fmt.Sprintf("ASR %s %.0f %% ≥ %s %.0f %%: %s", a, 100*ra.ASR, b, 100*rb.ASR, verdict(ra.ASR >= rb.ASR)))
		}
	}
	asr("addgp", "gpbo")
	asr("auto-dr", "gpbo")
	asr("addgp", "addgp-fd")
	if r, ok := by["auto-dr"]; ok {
		out = append(out, fmt.Sprintf("auto-dr's side varies across images (%d distinct): %s", len(r.Sides), verdict(len(r.Sides) > 1)))
	}
	if g, ok := by["genattack"]; ok {
		for _, m := range []string{"gpbo", "addgp", "addgp-fd", "auto-dr"} {
			if r, ok := by[m]; ok && r.Successes > 0 {
				out = append(out, fmt.Sprintf("median queries %s %.0f < genattack %.0f: %s", m, r.Median, g.Median, verdict(r.Median < g.Median || g.Successes == 0)))
			}
		}
	}
	return out
}
