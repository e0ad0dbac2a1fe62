package attacks

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/boaopt/boa/attack/standin"
)

func digits(t *testing.T) *standin.Digits {
	t.Helper()
	v, err := standin.TrainDigits(1)
	if err != nil {
		t.Skipf("no digits victim: %v", err)
	}
	return v
}

// TestReproImages runs the image experiment of spec attacks §3 (doc.go):
// the CI version in every go test, the full one with BOA_REPRO=1:
//
//	BOA_REPRO=1 go test ./experiments/attacks -run TestReproImages -v -timeout 6h
//
// with BOA_REPRO_IMAGES=n for the first n images only and
// BOA_REPRO_BUDGET=b for a budget of b queries.
// Only the machinery is asserted (every query within the L∞ ball, the
// budget kept, no victim errors); the relative findings are printed as
// met or not met.
func TestReproImages(t *testing.T) {
	v := digits(t)
	p := CIImages()
	if os.Getenv("BOA_REPRO") == "1" {
		p = FullImages()
		if n, err := strconv.Atoi(os.Getenv("BOA_REPRO_IMAGES")); err == nil {
			p.Images = n // fewer images, for a shorter run (docs/attacks.md says which)
		}
		if n, err := strconv.Atoi(os.Getenv("BOA_REPRO_BUDGET")); err == nil {
			p.Budget = n // a smaller budget, likewise
		}
	}
	start, n := time.Now(), 0
	outs, err := RunImages(v, v.Test(), p, runtime.GOMAXPROCS(0), func(o ImageOutcome) {
		n++
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "%s %d/%d %s image %d → %d: success %v, %d queries\n", time.Since(start).Round(time.Second), n, len(p.Methods)*p.Images*p.Targets, o.Method, o.Index, o.Target, o.Success, o.Queries)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := ImageTable(outs)
	WriteImageTable(os.Stdout, rows)
	for _, f := range ImageFindings(rows) {
		t.Log(f)
	}
	if len(outs) != len(p.Methods)*p.Images*p.Targets {
		t.Fatalf("%d outcomes, want %d", len(outs), len(p.Methods)*p.Images*p.Targets)
	}
	for _, o := range outs {
		if o.Err != nil || o.Queries > p.Budget || o.Linf > p.Delta+1e-12 || (!o.Success && o.Queries != p.Budget) {
			t.Fatalf("%s on image %d → %d: %d queries, L∞ %v, success %v, error %v", o.Method, o.Index, o.Target, o.Queries, o.Linf, o.Success, o.Err)
		}
	}
}

// TestReproGraphs runs the graph experiment of spec attacks §3: the CI
// version (one graph, budget 50) in every go test, the full one with
// BOA_REPRO=1:
//
//	BOA_REPRO=1 go test ./experiments/attacks -run TestReproGraphs -v -timeout 6h
func TestReproGraphs(t *testing.T) {
	v, err := standin.TrainGCN(1)
	if err != nil {
		t.Fatal(err)
	}
	p := CIGraphs()
	if os.Getenv("BOA_REPRO") == "1" {
		p = FullGraphs()
		if n, err := strconv.Atoi(os.Getenv("BOA_REPRO_GRAPHS")); err == nil {
			p.Graphs = n
		}
	}
	start, n := time.Now(), 0
	outs, err := RunGraphs(v, v.Test(), p, runtime.GOMAXPROCS(0), func(o GraphOutcome) {
		n++
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "%s %d/%d %s trial %d graph %d: success %v, %d queries, %d flips\n", time.Since(start).Round(time.Second), n, len(p.Methods)*p.Trials*p.Graphs, o.Method, o.Trial, o.Index, o.Success, o.Queries, len(o.Flips))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := GraphTable(outs, p)
	WriteGraphTable(os.Stdout, rows)
	for _, f := range GraphFindings(rows) {
		t.Log(f)
	}
	if len(outs) != len(p.Methods)*p.Trials*p.Graphs {
		t.Fatalf("%d outcomes, want %d", len(outs), len(p.Methods)*p.Trials*p.Graphs)
	}
	for _, o := range outs {
		if o.Err != nil || o.Queries > o.Budget || len(o.Flips) > o.Delta || (p.Budget > 0 && o.Budget != p.Budget) {
			t.Fatalf("%s on graph %d: %d queries of %d, %d flips of %d, error %v", o.Method, o.Index, o.Queries, o.Budget, len(o.Flips), o.Delta, o.Err)
		}
	}
}
