package fitbo

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"runtime"
	"strconv"

	"github.com/boaopt/boa/bench"
)

// TestBenchmarks runs the benchmarks of [000 §3.3.3] (spec §9.3) and
// prints, per problem and checkpoint, each method's median IR and ‖L‖₂
// of x̂ = argmin μ over the seeds. Without BOA_REPRO=1 it runs a short
// check (one seed, 12 evaluations, M = 10) that every method completes
// and scores its recommendations; BOA_REPRO=1 runs the protocol of
// docs/infotheoretic.md: BOA_FITBO_SEEDS seeds (default 10), M =
// BOA_FITBO_SAMPLES (default 20), 60 evaluations after the design.
func TestBenchmarks(t *testing.T) {
	p := Protocol{Samples: 10, Candidates: 256, Evaluations: 12, Checkpoints: []int{8, 15}}
	seeds := 1
	problems := []string{"branin_fitbo"}
	if os.Getenv("BOA_REPRO") == "1" {
		p = Protocol{Samples: envInt("BOA_FITBO_SAMPLES", 20), Candidates: 512, Evaluations: 60,
			Checkpoints: []int{10, 20, 30, 40, 50, 60, 69}}
		seeds = envInt("BOA_FITBO_SEEDS", 10)
		problems = Problems
		if v := os.Getenv("BOA_FITBO_PROBLEMS"); v != "" {
			problems = strings.Split(v, ",")
		}
	}
	methods := []string{"EI", "PES", "MES", "FITBO", "FITBO-MM"}
	type key struct{ problem, method string }
	var (
		mu   sync.Mutex
		runs = map[key][]Run{}
	)
	type job struct {
		problem, method string
		seed            uint64
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				r, err := RunOne(context.Background(), j.problem, j.method, j.seed, p)
				if err != nil {
					t.Errorf("%s %s seed %d: %v", j.problem, j.method, j.seed, err)
					continue
				}
				mu.Lock()
				runs[key{j.problem, j.method}] = append(runs[key{j.problem, j.method}], r)
				mu.Unlock()
			}
		}()
	}
	for _, problem := range problems {
		for _, method := range methods {
			for seed := range seeds {
				jobs <- job{problem, method, uint64(seed + 1)}
			}
		}
	}
	close(jobs)
	wg.Wait()
	for _, problem := range problems {
		var b strings.Builder
		fmt.Fprintf(&b, "%s: median IR / median ‖L‖₂ of x̂ over %d seeds (M = %d)\n| evaluations |", problem, seeds, p.Samples)
		for _, m := range methods {
			fmt.Fprintf(&b, " %s |", m)
		}
		b.WriteString("\n|---|" + strings.Repeat("---|", len(methods)) + "\n")
		ref := runs[key{problem, methods[0]}]
		if len(ref) == 0 {
			continue
		}
		for c, n := range ref[0].Evals {
			fmt.Fprintf(&b, "| %d |", n)
			for _, m := range methods {
				var ir, l2 []float64
				for _, r := range runs[key{problem, m}] {
					if c < len(r.IR) {
						ir, l2 = append(ir, r.IR[c]), append(l2, r.L2[c])
					}
				}
				if len(ir) != seeds {
					t.Errorf("%s %s: %d of %d runs scored at %d evaluations", problem, m, len(ir), seeds, n)
				}
				fmt.Fprintf(&b, " %.3g / %.3g |", bench.Median(ir), bench.Median(l2))
			}
			b.WriteString("\n")
		}
		t.Log("\n" + b.String())
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
