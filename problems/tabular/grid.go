package tabular

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/space"
)

// gridSchema is the documented layout of a grid table (HPOBench, FCNet):
// the hyperparameter columns in the README's order, whether each holds
// names (Categorical) or numbers (Ordinal), and the per-seed value columns
// seed0, seed1, ... with their legal range and their objective.
type gridSchema struct {
	params []gridParam
	lo, hi float64
	what   string
	obj    func(float64) float64
}

type gridParam struct {
	name        string
	categorical bool
}

var schemas = map[Kind]gridSchema{
	// [hpobench-mlp README]: balanced validation accuracy, higher is better.
	HPOBench: {
		params: []gridParam{{"alpha", false}, {"batch_size", false}, {"depth", false},
			{"learning_rate_init", false}, {"width", false}},
		lo: 0, hi: 1,
		what: "a balanced accuracy in [0, 1], or empty for a missing seed",
		obj:  func(v float64) float64 { return 1 - v },
	},
	// [fcnet README]: validation MSE, lower is better.
	FCNet: {
		params: []gridParam{{"activation_fn_1", true}, {"activation_fn_2", true}, {"batch_size", false},
			{"dropout_1", false}, {"dropout_2", false}, {"init_lr", false}, {"lr_schedule", true},
			{"n_units_1", false}, {"n_units_2", false}},
		lo: 0, hi: math.Inf(1),
		what: "a mean squared error ≥ 0, or empty for a missing seed",
		obj:  func(v float64) float64 { return v },
	},
}

// gridColumn collects the distinct values of one hyperparameter column in
// order of first appearance; rows refer to them by that order until the
// levels are final.
type gridColumn struct {
	field       int
	categorical bool
	ids         map[string]int32 // field text → first-appearance id
	nums        []float64        // numeric column: value of each id
	texts       []string         // categorical column: text of each id
}

// loadGrid reads a grid table. The grid is the file's own: each
// hyperparameter takes the distinct values of its column, numbers sorted
// (Ordinal) and names in order of first appearance (Categorical).
func loadGrid(r *reader, sch gridSchema) (*Table, error) {
	names := make([]string, len(sch.params))
	for i, p := range sch.params {
		names[i] = p.name
	}
	c, err := r.readHeader(layout{required: names, seedPrefix: "seed"})
	if err != nil {
		return nil, err
	}
	np, ns := len(sch.params), len(c.seeds)
	cols := make([]gridColumn, np)
	for i, p := range sch.params {
		cols[i].ids = map[string]int32{}
		cols[i].field = c.named[p.name]
		cols[i].categorical = p.categorical
	}
	var (
		prov  []int32   // first-appearance ids, np per row
		vals  []float64 // objectives, ns per row
		lines []int32
	)
	for {
		if err := r.next(); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		if lines == nil {
			n := r.estimateRows()
			prov, vals, lines = make([]int32, 0, n*np), make([]float64, 0, n*ns), make([]int32, 0, n)
		}
		for i := range cols {
			if err := r.gridValue(&cols[i], &prov); err != nil {
				return nil, err
			}
		}
		vals = slices.Grow(vals, ns)[:len(vals)+ns]
		if _, err := r.seeds(c, sch.lo, sch.hi, sch.what, sch.obj, vals[len(vals)-ns:]); err != nil {
			return nil, err
		}
		lines = append(lines, int32(r.line))
	}
	rows := len(lines)
	if rows == 0 {
		return nil, r.fileErr("no data rows after the header")
	}

	// Final levels: sorted distinct numbers, categories as they came.
	ps := make([]space.Param, np)
	remap := make([][]int32, np)
	for i, p := range sch.params {
		col := &cols[i]
		if p.categorical {
			ps[i] = space.Param{Name: p.name, Kind: space.Categorical, Choices: col.texts}
			continue
		}
		vs := slices.Clone(col.nums)
		slices.Sort(vs)
		vs = slices.Compact(vs) // "0" and "0.0" are one level
		remap[i] = make([]int32, len(col.nums))
		for j, v := range col.nums {
			k, _ := slices.BinarySearch(vs, v)
			remap[i][j] = int32(k)
		}
		ps[i] = space.Param{Name: p.name, Kind: space.Ordinal, Values: vs}
	}
	sp, err := space.New(ps...)
	if err != nil {
		return nil, r.fileErr("cannot build the search space: %v", err)
	}
	t := &Table{sp: sp, params: sp.Params(), nseed: ns, radix: make([]int, np)}
	total := 1.0
	for i, p := range t.params {
		if p.Kind == space.Categorical {
			t.radix[i] = len(p.Choices)
		} else {
			t.radix[i] = len(p.Values)
		}
		total *= float64(t.radix[i])
	}
	level := func(row, i int) int {
		k := prov[row*np+i]
		if remap[i] != nil {
			k = remap[i][k]
		}
		return int(k)
	}
	if total > float64(rows) {
		return nil, t.incomplete(r, lines, total, level)
	}
	// total ≤ rows: either every configuration has one row, or some repeat.
	n := int(total)
	first := make([]int32, n) // row+1 of each id, 0 = not yet
	t.vals = make([]float64, n*ns)
	for row := range rows {
		id := 0
		for i, L := range t.radix {
			id = id*L + level(row, i)
		}
		if f := first[id]; f != 0 {
			return nil, &FormatError{Path: r.path, Line: int(lines[row]), Msg: fmt.Sprintf(
				"repeats the configuration of line %d (%s); each configuration must have one row", lines[f-1], t.describe(t.assignment(id)))}
		}
		first[id] = int32(row + 1)
		copy(t.vals[id*ns:(id+1)*ns], vals[row*ns:(row+1)*ns])
	}
	return t, nil
}

// gridValue reads field col of the current row and appends its
// first-appearance id to prov.
func (r *reader) gridValue(col *gridColumn, prov *[]int32) error {
	field := col.field
	s := strings.TrimSpace(r.rec[field])
	id, ok := col.ids[s]
	if !ok {
		var v float64
		var err error
		switch {
		case s == "":
			return r.errf(field, "empty; every row needs a value for each hyperparameter")
		case col.categorical:
			col.texts = append(col.texts, strings.Clone(s))
		default:
			if v, _, err = r.float(field, math.Inf(-1), math.Inf(1), "a number", false); err != nil {
				return err
			}
			col.nums = append(col.nums, v)
		}
		id = int32(len(col.ids))
		col.ids[strings.Clone(s)] = id
	}
	*prov = append(*prov, id)
	return nil
}

// incomplete explains that the rows do not cover the grid their columns
// span, naming a repeated row or the first missing configuration.
func (t *Table) incomplete(r *reader, lines []int32, total float64, level func(row, i int) int) error {
	rows := len(lines)
	dims := make([]string, len(t.params))
	for i, p := range t.params {
		dims[i] = fmt.Sprintf("%s %d", p.Name, t.radix[i])
	}
	seen := make(map[string]int, rows)
	key := make([]byte, 0, 4*len(t.radix))
	for row := range rows {
		key = key[:0]
		for i := range t.radix {
			key = strconv.AppendInt(key, int64(level(row, i)), 10)
			key = append(key, ',')
		}
		if f, dup := seen[string(key)]; dup {
			return &FormatError{Path: r.path, Line: int(lines[row]), Msg: fmt.Sprintf(
				"repeats the configuration of line %d; each configuration must have one row", lines[f])}
		}
		seen[string(key)] = row
	}
	msg := fmt.Sprintf("%d rows, but the values in the columns span a grid of %s = %.0f configurations; "+
		"the documented format has one row for every configuration of the grid", rows, strings.Join(dims, " × "), total)
	if total <= 1e7 {
		has := make([]bool, int(total))
		for row := range rows {
			id := 0
			for i, L := range t.radix {
				id = id*L + level(row, i)
			}
			has[id] = true
		}
		msg += " (the first missing is " + t.describe(t.assignment(slices.Index(has, false))) + ")"
	}
	return r.fileErr("%s", msg)
}

// describe writes a configuration as name=value pairs in space order.
func (t *Table) describe(a space.Assignment) string {
	parts := make([]string, len(t.params))
	for i, p := range t.params {
		parts[i] = p.Name + "=" + space.Format(a[p.Name])
	}
	return strings.Join(parts, " ")
}
