package mixed

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// WCNF is a weighted MaxSAT instance in the old-style DIMACS WCNF format
// (see ../shared/data/maxsat/README.md): comment lines starting with "c", a
// header "p wcnf NVARS NCLAUSES [TOP]", then one clause per line,
// "WEIGHT LIT ... LIT 0", where literal k means variable k is true and −k
// that it is false (variables numbered from 1).
type WCNF struct {
	NumVars int
	Top     float64   // weight of hard clauses; +Inf when the header omits it
	Weights []float64 // per clause
	Clauses [][]int   // per clause, its literals
	Optimum float64   // from a "c optimum value = N" comment; NaN when absent
}

// SyntaxError reports a malformed WCNF file.
type SyntaxError struct {
	File string
	Line int // 1-based; 0 for a problem of the file as a whole
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("wcnf %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("wcnf %s:%d: %s", e.File, e.Line, e.Msg)
}

// ReadWCNF reads the WCNF file at path.
func ReadWCNF(path string) (*WCNF, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseWCNF(f, path)
}

// ParseWCNF parses a WCNF instance; name is the file name used in errors.
// Every error names the line at fault and what is wrong. Clause weights must
// be positive numbers; weights ≥ Top (hard clauses) are kept as weights, as
// in the COMBO code, which ignores Top.
func ParseWCNF(r io.Reader, name string) (*WCNF, error) {
	w := &WCNF{Optimum: math.NaN()}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	bad := func(line int, format string, args ...any) error {
		return &SyntaxError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	header, declared := 0, 0
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0:
			continue
		case strings.HasPrefix(fields[0], "c"):
			if v, ok := statedOptimum(sc.Text()); ok {
				w.Optimum = v
			}
			continue
		case fields[0] == "p":
			if header > 0 {
				return nil, bad(n, "a second header line (the first is line %d)", header)
			}
			nv, nc, top, err := parseHeader(fields)
			if err != nil {
				return nil, bad(n, "%v", err)
			}
			header, declared = n, nc
			w.NumVars, w.Top = nv, top
			// nc is the file's claim, checked against its clauses at the
			// end: reserve room for no more than a large instance needs, or
			// "p wcnf 1 1000000000000" runs out of memory before line 2.
			w.Weights = make([]float64, 0, min(nc, 1024))
			w.Clauses = make([][]int, 0, min(nc, 1024))
			continue
		case fields[0] == "h":
			return nil, bad(n, "hard clause marked \"h\": the new-style WCNF format is not supported, write it as TOP LIT ... 0")
		case header == 0:
			return nil, bad(n, "clause before the \"p wcnf NVARS NCLAUSES TOP\" header line")
		}
		wt, lits, err := parseClause(fields, w.NumVars)
		if err != nil {
			return nil, bad(n, "%v", err)
		}
		w.Weights = append(w.Weights, wt)
		w.Clauses = append(w.Clauses, lits)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("wcnf %s: %w", name, err)
	}
	if header == 0 {
		return nil, bad(0, "no \"p wcnf NVARS NCLAUSES TOP\" header line")
	}
	if len(w.Clauses) != declared {
		return nil, bad(header, "the header declares %d clauses but the file has %d", declared, len(w.Clauses))
	}
	return w, nil
}

// MaxVars bounds the variables of an instance: each becomes a binary
// parameter of the problem's space (NewMaxSAT), and no GP searches a
// space of more. The instances of the seeds have 28–60.
const MaxVars = 1 << 16

// parseHeader reads "p wcnf NVARS NCLAUSES [TOP]".
func parseHeader(f []string) (nv, nc int, top float64, err error) {
	if len(f) < 4 || len(f) > 5 || f[1] != "wcnf" {
		return 0, 0, 0, fmt.Errorf("want the header \"p wcnf NVARS NCLAUSES TOP\", got %q", strings.Join(f, " "))
	}
	nv, err1 := strconv.Atoi(f[2])
	nc, err2 := strconv.Atoi(f[3])
	if err1 != nil || err2 != nil || nv < 1 || nc < 0 {
		return 0, 0, 0, fmt.Errorf("the header needs a positive number of variables and a number of clauses, got %q and %q", f[2], f[3])
	}
	if nv > MaxVars {
		return 0, 0, 0, fmt.Errorf("the header declares %d variables; a MaxSAT problem here has at most %d, one binary parameter each", nv, MaxVars)
	}
	top = math.Inf(1)
	if len(f) == 5 {
		top, err = strconv.ParseFloat(f[4], 64)
		if err != nil || !(top > 0) || math.IsInf(top, 0) {
			return 0, 0, 0, fmt.Errorf("the header's top weight %q is not a positive number", f[4])
		}
	}
	return nv, nc, top, nil
}

// parseClause reads "WEIGHT LIT ... LIT 0".
func parseClause(f []string, nv int) (float64, []int, error) {
	wt, err := strconv.ParseFloat(f[0], 64)
	if err != nil || !(wt > 0) || math.IsInf(wt, 0) {
		return 0, nil, fmt.Errorf("clause weight %q is not a positive number", f[0])
	}
	if f[len(f)-1] != "0" {
		return 0, nil, fmt.Errorf("a clause must end with 0 on its line, got %q", strings.Join(f, " "))
	}
	lits := make([]int, 0, len(f)-2)
	for _, s := range f[1 : len(f)-1] {
		l, err := strconv.Atoi(s)
		switch {
		case err != nil:
			return 0, nil, fmt.Errorf("literal %q is not an integer", s)
		case l == 0:
			return 0, nil, fmt.Errorf("0 ends a clause but appears before its last literal; put one clause per line")
		case l > nv || l < -nv:
			return 0, nil, fmt.Errorf("literal %d names variable %d, but the header declares %d variables", l, max(l, -l), nv)
		}
		lits = append(lits, l)
	}
	if len(lits) == 0 {
		return 0, nil, fmt.Errorf("empty clause (a weight followed by 0)")
	}
	return wt, lits, nil
}

// statedOptimum reads "c optimum value = N", the form the MaxSAT Evaluation
// instances state their optimum in.
func statedOptimum(line string) (float64, bool) {
	_, rest, ok := strings.Cut(line, "optimum value")
	if !ok {
		return 0, false
	}
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "="))
	v, err := strconv.ParseFloat(rest, 64)
	return v, err == nil
}
