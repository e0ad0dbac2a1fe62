package mixed

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxsat60 loads the shared instance or skips.
func maxsat60(t *testing.T) *WCNF {
	t.Helper()
	w, err := loadMaxSAT(maxsat60File)
	if errors.Is(err, ErrNoData) {
		t.Skipf("MaxSAT data absent: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestReadMaxSAT60 checks the parser against the README's sanity values.
func TestReadMaxSAT60(t *testing.T) {
	w := maxsat60(t)
	if w.NumVars != 60 || len(w.Clauses) != 698 || w.Top != 38979 || w.Optimum != 38928 {
		t.Fatalf("read %d variables, %d clauses, top %v, optimum %v; want 60, 698, 38979, 38928",
			w.NumVars, len(w.Clauses), w.Top, w.Optimum)
	}
	count := map[[2]int]int{} // (weight, length) → clauses
	sum := 0.0
	for c, lits := range w.Clauses {
		count[[2]int{int(w.Weights[c]), len(lits)}]++
		sum += w.Weights[c]
	}
	if count[[2]int{1, 1}] != 60 || count[[2]int{61, 2}] != 638 || sum != 38978 {
		t.Errorf("clause census %v, weight sum %v; want 60 unit clauses of weight 1, 638 pairs of 61, sum 38978", count, sum)
	}
	ws := numpyStandardise(w.Weights)
	if math.Abs(float64(ws[0])+3.260879) > 1e-6 || math.Abs(float64(ws[697])-0.306666) > 1e-6 {
		t.Errorf("standardised weights %v (unit) and %v (pair), want −3.260879 and 0.306666", ws[0], ws[697])
	}
}

// solveFRB finds an assignment that satisfies every conflict clause and one
// unit clause per CSP variable of the forced-RB instance, whose 60 Boolean
// variables are 10 CSP variables × 6 values, consecutive (checked).
func solveFRB(t *testing.T, w *WCNF) []int {
	conflict := make([][]bool, w.NumVars)
	for i := range conflict {
		conflict[i] = make([]bool, w.NumVars)
	}
	for _, lits := range w.Clauses {
		if len(lits) == 2 && lits[0] < 0 && lits[1] < 0 {
			a, b := -lits[0]-1, -lits[1]-1
			conflict[a][b], conflict[b][a] = true, true
		}
	}
	const groups, dom = 10, 6
	for g := range groups {
		for i := range dom {
			for j := range i {
				if !conflict[g*dom+i][g*dom+j] {
					t.Fatalf("variables %d and %d of group %d do not conflict: not the forced-RB layout", g*dom+i+1, g*dom+j+1, g)
				}
			}
		}
	}
	chosen := make([]int, 0, groups)
	var search func(g int) bool
	search = func(g int) bool {
		if g == groups {
			return true
		}
	next:
		for v := g * dom; v < (g+1)*dom; v++ {
			for _, u := range chosen {
				if conflict[u][v] {
					continue next
				}
			}
			chosen = append(chosen, v)
			if search(g + 1) {
				return true
			}
			chosen = chosen[:len(chosen)-1]
		}
		return false
	}
	if !search(0) {
		t.Fatal("no solution of the forced-RB instance")
	}
	h := make([]int, w.NumVars)
	for _, v := range chosen {
		h[v] = 1
	}
	return h
}

// TestMaxSAT60 checks both variants at all-false and at an optimal
// assignment [spec §6.6, §8; issue 5].
func TestMaxSAT60(t *testing.T) {
	maxsat60(t)
	raw, std := mustGet(t, "maxsat60"), mustGet(t, "maxsat60-std")
	zeros := make([]int, 60)
	if f := raw.Value(zeros, nil); f != -38918 {
		t.Errorf("maxsat60(all zeros) = %v, want −38918", f)
	}
	if f := std.Value(zeros, nil); math.Abs(f-(-195.65271)) > 5e-6 {
		t.Errorf("maxsat60-std(all zeros) = %.6f, want −195.65271", f)
	}
	if f, ok := raw.Optimum(); !ok || f != -38928 {
		t.Errorf("maxsat60 Optimum() = %v, %v; want −38928", f, ok)
	}
	if f, ok := std.Optimum(); !ok || f != std.Value(zeros, nil) {
		t.Errorf("maxsat60-std Optimum() = %v, %v; want the all-zeros value", f, ok)
	}
	h := solveFRB(t, maxsat60(t))
	a := raw.Assignment(h, nil)
	f, err := raw.Evaluate(a, nil)
	if err != nil || f != -38928 {
		t.Errorf("maxsat60 at a solution = %v (%v), want −38928", f, err)
	}
	if g := std.Value(h, nil); math.Abs(g-(-163.0439)) > 1e-3 {
		t.Errorf("maxsat60-std at the raw optimum = %.4f, want −163.0439 (worse than all zeros)", g)
	}
}

// TestMaxSATSmall checks the objective and the optimum rules on an instance
// small enough to enumerate.
func TestMaxSATSmall(t *testing.T) {
	src := "c tiny\np wcnf 3 4 100\n5 1 2 0\n3 -1 0\n2 -2 3 0\n4 -3 -1 0\n"
	w, err := ParseWCNF(strings.NewReader(src), "tiny.wcnf")
	if err != nil {
		t.Fatal(err)
	}
	p := NewMaxSAT("tiny", w, false)
	if _, ok := p.Optimum(); ok {
		t.Error("tiny: optimum known without a stated one")
	}
	best := math.Inf(1)
	for m := range 8 {
		h := []int{m & 1, m >> 1 & 1, m >> 2 & 1}
		want := 0.0
		for c, lits := range w.Clauses {
			for _, l := range lits {
				v := h[max(l, -l)-1] == 1
				if v == (l > 0) {
					want -= w.Weights[c]
					break
				}
			}
		}
		if got := p.Value(h, nil); got != want {
			t.Errorf("tiny%v = %v, want %v", h, got, want)
		}
		best = min(best, want)
	}
	if best != -14 { // 5 + 3 + 2 + 4 at x = (0, 1, 1)
		t.Errorf("tiny: best %v, want −14", best)
	}
	// Standardised, clauses 1 and 4 weigh +1.342 and +0.447, clauses 2 and
	// 3 −0.447 and −1.342: the bound −1.789 is attained only at x = (1, 1, 0),
	// which neither certificate (all zeros, all ones) covers, so the optimum
	// is reported unknown.
	ps := NewMaxSAT("tiny-std", w, true)
	if _, ok := ps.Optimum(); ok {
		t.Error("tiny-std: optimum reported known")
	}
	if v := ps.Value([]int{1, 1, 0}, nil); math.Abs(v-(-4/math.Sqrt(5))) > 1e-6 {
		t.Errorf("tiny-std(1, 1, 0) = %v, want −4/√5", v)
	}
}

// TestWCNFMalformed checks that each kind of bad file is reported with its
// line.
func TestWCNFMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"no header", "c x\n1 1 0\n", 2, "before the"},
		{"header missing", "c only comments\n", 0, "no \"p wcnf"},
		{"bad header", "p cnf 3 1\n1 1 0\n", 1, "want the header"},
		{"bad counts", "p wcnf three 1 9\n", 1, "positive number of variables"},
		{"bad top", "p wcnf 3 1 -2\n", 1, "top weight"},
		// NewMaxSAT would allocate a parameter per declared variable.
		{"huge variable count", "p wcnf 1000000000000 1 9\n1 1 0\n", 1, "declares 1000000000000 variables; a MaxSAT problem here has at most 65536"},
		{"two headers", "p wcnf 3 1 9\np wcnf 3 1 9\n", 2, "second header"},
		{"bad weight", "p wcnf 3 1 9\nx 1 0\n", 2, "weight \"x\""},
		{"zero weight", "p wcnf 3 1 9\n0 1 0\n", 2, "not a positive number"},
		{"no terminator", "p wcnf 3 1 9\n1 1 2\n", 2, "end with 0"},
		{"bad literal", "p wcnf 3 1 9\n1 1 q 0\n", 2, "literal \"q\""},
		{"zero inside", "p wcnf 3 1 9\n1 1 0 2 0\n", 2, "before its last literal"},
		{"literal range", "p wcnf 3 2 9\n1 1 0\n\n1 -4 0\n", 4, "names variable 4"},
		{"empty clause", "p wcnf 3 1 9\n1 0\n", 2, "empty clause"},
		{"hard marker", "p wcnf 3 1 9\nh 1 0\n", 2, "new-style"},
		{"count mismatch", "c\np wcnf 3 2 9\n1 1 0\n", 2, "declares 2 clauses but the file has 1"},
		// It ran out of memory reserving room for the declared clauses.
		{"huge count", "p wcnf 1 1000000000000 9\n1 1 0\n", 1, "declares 1000000000000 clauses but the file has 1"},
	} {
		path := filepath.Join(t.TempDir(), "bad.wcnf")
		if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadWCNF(path)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%s: error %v, want a *SyntaxError", tc.name, err)
			continue
		}
		if se.Line != tc.line || se.File != path || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v (line %d), want line %d and %q", tc.name, err, se.Line, tc.line, tc.msg)
		}
		if tc.line > 0 && !strings.Contains(err.Error(), "bad.wcnf:"+string(rune('0'+tc.line))+":") {
			t.Errorf("%s: %q does not name file:line", tc.name, err)
		}
	}
}

// TestMaxSATMissing checks the error when the instance is absent.
func TestMaxSATMissing(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(MaxSATDirEnv, dir)
	for _, name := range []string{"maxsat60", "maxsat60-std"} {
		_, err := Get(name)
		if !errors.Is(err, ErrNoData) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), name) {
			t.Errorf("Get(%q) with %s=%s: %v; want ErrNoData naming the folder", name, MaxSATDirEnv, dir, err)
		}
	}
	// A malformed instance is an error too, not ErrNoData.
	if err := os.WriteFile(filepath.Join(dir, maxsat60File), []byte("p wcnf 2 1 9\n1 3 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var se *SyntaxError
	if _, err := Get("maxsat60"); !errors.As(err, &se) || errors.Is(err, ErrNoData) {
		t.Errorf("malformed instance: %v, want a *SyntaxError", err)
	}
}
