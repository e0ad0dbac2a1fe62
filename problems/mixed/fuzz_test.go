package mixed

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseWCNF feeds arbitrary text to the WCNF reader. It must not panic,
// must allocate in proportion to the input (a header's counts are claims,
// not sizes), and a file it accepts must describe a well-formed instance
// that reads back the same when written out again.
func FuzzParseWCNF(f *testing.F) {
	for _, s := range []string{
		"c tiny\np wcnf 3 4 100\n5 1 2 0\n3 -1 0\n2 -2 3 0\n4 -3 -1 0\n",
		"c optimum value = 38928\np wcnf 60 3 38979\n1 1 0\n1 2 0\n38979 -1 -2 0\n",
		"p wcnf 2 1\n1.5 1 -2 0\n",
		"c x\n1 1 0\n",
		"p cnf 3 1\n1 1 0\n",
		"p wcnf 3 1 9\n1 1 0 2 0\n",
		"p wcnf 3 1 9\nh 1 0\n",
		"p wcnf 3 2 9\n1 1 0\n\n1 -4 0\n",
		"p wcnf 1 1000000000000 9\n1 1 0\n",
		"p wcnf 3 1 1e308\n1e-300 1 2 3 0\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w, err := ParseWCNF(strings.NewReader(string(data)), "fuzz.wcnf")
		runtime.ReadMemStats(&after)
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(64*len(data)+1<<20); got > limit {
			t.Fatalf("%d bytes of input allocated %d bytes (limit %d)", len(data), got, limit)
		}
		if err != nil {
			return
		}
		if w.NumVars < 1 || !(w.Top > 0) || len(w.Weights) != len(w.Clauses) {
			t.Fatalf("accepted a malformed instance: %d variables, top %v, %d weights, %d clauses",
				w.NumVars, w.Top, len(w.Weights), len(w.Clauses))
		}
		for c, lits := range w.Clauses {
			if wt := w.Weights[c]; !(wt > 0) || math.IsInf(wt, 0) {
				t.Fatalf("clause %d: weight %v", c, wt)
			}
			if len(lits) == 0 {
				t.Fatalf("clause %d is empty", c)
			}
			for _, l := range lits {
				if l == 0 || l > w.NumVars || l < -w.NumVars {
					t.Fatalf("clause %d: literal %d with %d variables", c, l, w.NumVars)
				}
			}
		}
		back, err := ParseWCNF(strings.NewReader(formatWCNF(w)), "again.wcnf")
		if err != nil {
			t.Fatalf("written back, the instance does not read: %v\n%s", err, formatWCNF(w))
		}
		if formatWCNF(back) != formatWCNF(w) || !sameFloat(back.Optimum, w.Optimum) {
			t.Fatalf("written back and read again, the instance changed:\n%s\n→\n%s", formatWCNF(w), formatWCNF(back))
		}
	})
}

// formatWCNF writes w in the format ParseWCNF reads.
func formatWCNF(w *WCNF) string {
	var b strings.Builder
	if !math.IsNaN(w.Optimum) {
		fmt.Fprintf(&b, "c optimum value = %s\n", strconv.FormatFloat(w.Optimum, 'g', -1, 64))
	}
	fmt.Fprintf(&b, "p wcnf %d %d", w.NumVars, len(w.Clauses))
	if !math.IsInf(w.Top, 1) {
		fmt.Fprintf(&b, " %s", strconv.FormatFloat(w.Top, 'g', -1, 64))
	}
	b.WriteByte('\n')
	for c, lits := range w.Clauses {
		b.WriteString(strconv.FormatFloat(w.Weights[c], 'g', -1, 64))
		for _, l := range lits {
			fmt.Fprintf(&b, " %d", l)
		}
		b.WriteString(" 0\n")
	}
	return b.String()
}

func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
