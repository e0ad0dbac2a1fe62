package report_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/analysis"
	"github.com/boaopt/boa/constraint"
	"github.com/boaopt/boa/report"
	"github.com/boaopt/boa/space"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// run optimises a study stored in a real SQLite file and returns it as
// the report reads it.
func run(t *testing.T, spec study.Spec, n, workers int, objective study.Objective) report.Study {
	t.Helper()
	ctx := context.Background()
	store, err := storage.OpenSQLite(ctx, filepath.Join(t.TempDir(), "boa.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	if spec.Sampler == "" {
		spec.Sampler = "random"
	}
	st, err := study.Create(ctx, store, spec)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		// an empty study
	} else if err := st.Optimize(ctx, objective, n, study.OptimizeOptions{Workers: workers}); err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return report.Study{
		Study: analysis.Study{Space: st.Space(), Direction: st.Direction(), Trials: trials},
		Name:  st.Name(), Sampler: spec.Sampler, Constraints: constraintText(st.Constraints()), Seed: 1,
	}
}

func constraintText(c constraint.Set) string {
	if len(c) == 0 {
		return ""
	}
	return c.String()
}

// checkPNGs checks that every file named .png decodes as a non-empty image.
func checkPNGs(t *testing.T, dir string, files []string) {
	t.Helper()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(f, ".png") {
			continue
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if r := img.Bounds(); r.Dx() < 100 || r.Dy() < 100 {
			t.Errorf("%s: %v pixels", f, r)
		}
	}
}

func has(files []string, f string) bool {
	for _, g := range files {
		if g == f {
			return true
		}
	}
	return false
}

// A study with every kind of trial: learning curves, PRUNED and FAILED
// trials, a categorical and a log-scale parameter, two workers.
func TestWriteMixed(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"sgd", "adam"}},
		space.Param{Name: "layers", Kind: space.Int, Low: 1, High: 6},
	)
	s := run(t, study.Spec{Name: "mixed", Space: sp, Seed: 3}, 40, 2, func(ctx context.Context, tr *study.Trial) (float64, error) {
		lr := tr.Float("lr")
		v := math.Abs(math.Log10(lr)+2) + float64(tr.Int("layers"))/3
		if tr.String("opt") == "sgd" {
			v += 1
		}
		if tr.Number%9 == 4 {
			return 0, errors.New("out of memory")
		}
		for step := range 5 {
			if err := tr.Report(ctx, int64(step), v+1/float64(step+1)); err != nil {
				return 0, err
			}
			if tr.Number%5 == 2 && step == 2 {
				return v + 1/3.0, fmt.Errorf("slow: %w", study.ErrPruned)
			}
		}
		return v, nil
	})
	dir := filepath.Join(t.TempDir(), "out")
	r, err := report.Write(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"history.png", "importance.png", "edf.png", "intermediate.png", "slice-lr.png",
		"slice-opt.png", "slice-layers.png", "contour.png", "timeline.png", "report.md"} {
		if !has(r.Files, f) {
			t.Errorf("%s not written; files %v, skipped %v", f, r.Files, r.Skipped)
		}
	}
	if len(r.Skipped) != 0 {
		t.Errorf("skipped: %v", r.Skipped)
	}
	checkPNGs(t, dir, r.Files)
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{"# Study mixed", "| PRUNED | 7 |", "| FAILED | 4 |", "Best trial: **", "| lr | ",
		"![history](history.png)", "![contour](contour.png)", "boa trials mixed", "| parameter | share |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
}

// A constrained study: feasible counts, the best feasible trial, infeasible
// trials marked.
func TestWriteConstrained(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "y", Kind: space.Float, Low: 0, High: 1},
	)
	limit := 0.5
	spec := study.Spec{Name: "constrained", Space: sp, Seed: 5, Constraints: constraint.Set{"ram": {Max: &limit}}}
	s := run(t, spec, 30, 1, func(ctx context.Context, tr *study.Trial) (float64, error) {
		x, y := tr.Float("x"), tr.Float("y")
		tr.Metrics["ram"] = x
		return (x-0.7)*(x-0.7) + y, nil
	})
	dir := t.TempDir()
	r, err := report.Write(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	checkPNGs(t, dir, r.Files)
	var feasible, infeasible int
	var best = math.Inf(1)
	for _, tr := range s.Trials {
		if *tr.Feasible {
			feasible++
			best = min(best, tr.Value)
		} else {
			infeasible++
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
	for _, want := range []string{
		fmt.Sprintf("Constraints ram <= 0.5: %d feasible, %d infeasible, 0 failed", feasible, infeasible),
		fmt.Sprintf("Best feasible trial: **%d**", bestNumber(s, best)),
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	if feasible == 0 || infeasible == 0 {
		t.Fatalf("%d feasible, %d infeasible: the test wants both", feasible, infeasible)
	}
}

func bestNumber(s report.Study, v float64) int {
	for _, tr := range s.Trials {
		if tr.Value == v {
			return tr.Number
		}
	}
	return -1
}

// A study with too little to show writes what it can and says why the
// rest is missing.
func TestWriteSparse(t *testing.T) {
	sp := space.MustNew(space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1})
	for _, n := range []int{0, 1} {
		s := run(t, study.Spec{Name: "sparse", Space: sp, Seed: 1}, n, 1, func(ctx context.Context, tr *study.Trial) (float64, error) {
			return tr.Float("x"), nil
		})
		dir := t.TempDir()
		r, err := report.Write(dir, s)
		if err != nil {
			t.Fatal(err)
		}
		checkPNGs(t, dir, r.Files)
		md, _ := os.ReadFile(filepath.Join(dir, "report.md"))
		if !strings.Contains(string(md), "Not drawn: ") || len(r.Skipped) == 0 {
			t.Errorf("%d trials: report.md says nothing of the missing plots:\n%s", n, md)
		}
		if n == 0 && (len(r.Files) != 1 || !strings.Contains(string(md), "No COMPLETE trial yet")) {
			t.Errorf("empty study: files %v\n%s", r.Files, md)
		}
	}
}
