package tabular

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/graph"
)

// The NAS-Bench-201 cell: six edges in the order of the arch string
// (1←0, 2←0, 2←1, 3←0, 3←1, 3←2), each one of five operations, listed in
// NB201's operation order [nb201 README; nas-graph-bo.md §1.2].
var nb201Ops = graph.NB201Ops

// nb201Cells is the number of cells, 5⁶.
const nb201Cells = 15625

var nb201Layout = layout{
	required:   []string{"arch", "test_acc"},
	optional:   []string{"index", "valid_acc_mean", "test_acc_12ep"},
	seedPrefix: "valid_acc_seed",
}

const (
	percent     = "a percentage in [0, 100]"
	seedPercent = "a validation accuracy in percent, in [0, 100], or empty for a missing run"
)

// loadNB201 reads an NB201 table. The objective is computed from the
// per-seed validation accuracies; valid_acc_mean, when present, must agree
// with their mean. index is kept for joins (Table.Index), test_acc_12ep
// for the two-fidelity benchmark (Table.Accuracy12).
func loadNB201(r *reader) (*Table, error) {
	c, err := r.readHeader(nb201Layout)
	if err != nil {
		return nil, err
	}
	ns := len(c.seeds)
	t := &Table{
		nseed: ns,
		vals:  make([]float64, nb201Cells*ns),
		test:  make([]float64, nb201Cells),
	}
	seen := make([]int32, nb201Cells) // line of each cell's row, 0 = not yet
	archCol, testCol := c.named["arch"], c.named["test_acc"]
	rows := 0
	for {
		if err := r.next(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		rows++
		ops, msg := parseArch(r.rec[archCol])
		if msg != "" {
			return nil, r.errf(archCol, "%s", msg)
		}
		id := 0
		for _, k := range ops {
			id = id*len(nb201Ops) + k
		}
		if l := seen[id]; l != 0 {
			return nil, r.errf(archCol, "cell %s already appeared on line %d; each cell must have one row", archString(ops), l)
		}
		seen[id] = int32(r.line)
		row := t.vals[id*ns : (id+1)*ns]
		n, err := r.seeds(c, 0, 100, seedPercent, func(v float64) float64 { return 100 - v }, row)
		if err != nil {
			return nil, err
		}
		if t.test[id], _, err = r.float(testCol, 0, 100, "a test accuracy in percent, in [0, 100]", false); err != nil {
			return nil, err
		}
		k, acc12, err := r.checkNB201Extras(c, row, n)
		if err != nil {
			return nil, err
		}
		if !math.IsNaN(acc12) {
			if t.test12 == nil {
				t.test12 = make([]float64, nb201Cells)
				for i := range t.test12 {
					t.test12[i] = math.NaN()
				}
			}
			t.test12[id] = acc12
		}
		if k >= 0 {
			if t.index == nil {
				t.index = make([]int, nb201Cells)
			}
			t.index[id] = k
		}
	}
	if rows == 0 {
		return nil, r.fileErr("no data rows after the header; an NB201 table has one row per cell (%d)", nb201Cells)
	}
	if rows < nb201Cells {
		first := slices.Index(seen, 0)
		var ops [6]int
		for i := 5; i >= 0; i-- {
			ops[i] = first % len(nb201Ops)
			first /= len(nb201Ops)
		}
		return nil, r.fileErr("%d of the %d NAS-Bench-201 cells have a row; every cell needs one (the first missing is %s)",
			rows, nb201Cells, archString(ops))
	}
	t.sp = graph.NB201Space()
	t.radix = slices.Repeat([]int{len(nb201Ops)}, graph.NB201Edges)
	t.params = t.sp.Params()
	return t, nil
}

// checkNB201Extras checks the optional columns of the current row: index is
// a whole number, valid_acc_mean is the mean of the n validation runs in
// row (as objectives 100 − accuracy), test_acc_12ep is a percentage or empty.
// It returns the row's index, −1 without the column, for joins with other
// NB201 data, and its 12-epoch test accuracy, NaN when empty or absent.
func (r *reader) checkNB201Extras(c columns, row []float64, n int) (index int, acc12 float64, err error) {
	index, acc12 = -1, math.NaN()
	if col, ok := c.named["index"]; ok {
		s := strings.TrimSpace(r.rec[col])
		k, err := strconv.Atoi(s)
		if err != nil || k < 0 {
			return -1, acc12, r.errf(col, "%q is not an architecture index (a whole number ≥ 0)", s)
		}
		index = k
	}
	if col, ok := c.named["valid_acc_mean"]; ok {
		m, _, err := r.float(col, 0, 100, "the mean validation accuracy, "+percent, false)
		if err != nil {
			return -1, acc12, err
		}
		s := 0.0
		for _, v := range row {
			if !math.IsNaN(v) {
				s += 100 - v
			}
		}
		// The file writes the mean rounded once; 1e-6 points is far above
		// rounding and far below any real disagreement.
		if want := s / float64(n); math.Abs(m-want) > 1e-6 {
			return -1, acc12, r.errf(col, "%s is not the mean of the %d validation runs on this row (%s)", r.rec[col], n, strconv.FormatFloat(want, 'g', -1, 64))
		}
	}
	if col, ok := c.named["test_acc_12ep"]; ok {
		v, ok, err := r.float(col, 0, 100, percent+" or empty", true)
		if err != nil {
			return -1, acc12, err
		}
		if ok {
			acc12 = v
		}
	}
	return index, acc12, nil
}

// parseArch reads an NB201 arch string |op~0|+|op~0|op~1|+|op~0|op~1|op~2|
// into the operation index of each edge; msg says what is wrong, if anything.
func parseArch(s string) (ops [6]int, msg string) {
	const want = "want |op~0|+|op~0|op~1|+|op~0|op~1|op~2|"
	s = strings.TrimSpace(s)
	nodes := strings.Split(s, "+")
	if len(nodes) != 3 {
		return ops, fmt.Sprintf("arch %q has %d nodes separated by '+'; %s", s, len(nodes), want)
	}
	e := 0
	for i, node := range nodes {
		if len(node) < 2 || node[0] != '|' || node[len(node)-1] != '|' {
			return ops, fmt.Sprintf("arch %q: node %d (%q) is not enclosed in '|'; %s", s, i+1, node, want)
		}
		inputs := strings.Split(node[1:len(node)-1], "|")
		if len(inputs) != i+1 {
			return ops, fmt.Sprintf("arch %q: node %d should have %d inputs, got %d; %s", s, i+1, i+1, len(inputs), want)
		}
		for j, in := range inputs {
			op, from, ok := strings.Cut(in, "~")
			if !ok || from != strconv.Itoa(j) {
				return ops, fmt.Sprintf("arch %q: input %q of node %d should be op~%d", s, in, i+1, j)
			}
			k := slices.Index(nb201Ops, op)
			if k < 0 {
				return ops, fmt.Sprintf("arch %q: unknown operation %q; want one of %s", s, op, strings.Join(nb201Ops, ", "))
			}
			ops[e] = k
			e++
		}
	}
	return ops, ""
}

// archString writes the arch string of a cell.
func archString(ops [6]int) string {
	var names [graph.NB201Edges]string
	for e, k := range ops {
		names[e] = nb201Ops[k]
	}
	return graph.NB201Arch(names)
}
