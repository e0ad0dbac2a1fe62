package tabular

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/boaopt/boa/space"
)

// Kind names a tabular benchmark format.
type Kind string

// The supported formats, as written before the colon of --table KIND:PATH.
const (
	NB201    Kind = "nb201"    // NAS-Bench-201 cells (../shared/data/nb201/README.md)
	HPOBench Kind = "hpobench" // HPOBench tabular MLP (../shared/data/hpobench-mlp/README.md)
	FCNet    Kind = "fcnet"    // FCNet/HPOLib (../shared/data/fcnet/README.md)
)

// Kinds lists the supported formats.
var Kinds = []Kind{NB201, HPOBench, FCNet}

// ErrNotInTable is wrapped by Objective when an assignment names no
// configuration of the table.
var ErrNotInTable = errors.New("configuration not in the table")

// ParseKind parses a format name: nb201, hpobench or fcnet (in any case).
func ParseKind(s string) (Kind, error) {
	for _, k := range Kinds {
		if Kind(strings.ToLower(strings.TrimSpace(s))) == k {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown table kind %q; want one of %s", s, kindList())
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// ParseSpec splits a table argument "KIND:PATH" (as given to --table) at
// its first colon.
func ParseSpec(s string) (Kind, string, error) {
	k, path, ok := strings.Cut(s, ":")
	if !ok {
		return "", "", fmt.Errorf("table %q: want KIND:PATH with KIND one of %s, e.g. nb201:data/nb201/cifar10.csv", s, kindList())
	}
	kind, err := ParseKind(k)
	if err != nil {
		return "", "", fmt.Errorf("table %q: %w", s, err)
	}
	if strings.TrimSpace(path) == "" {
		return "", "", fmt.Errorf("table %q: the path after %q is empty", s, k+":")
	}
	return kind, path, nil
}

// Table is a loaded tabular benchmark: every configuration of a grid with
// one objective value per training seed. It is immutable after Load and
// safe for concurrent use.
type Table struct {
	Kind Kind
	Path string

	name   string
	sp     *space.Space
	params []space.Param
	radix  []int     // levels per parameter; a configuration's id is its mixed-radix number, last parameter fastest
	nseed  int       // seed columns
	vals   []float64 // objective of (id, seed) at id*nseed+seed; NaN where the seed is missing
	mean   []float64 // seed-mean objective per id
	test   []float64 // NB201: test accuracy per id; nil for the other kinds
	index  []int     // NB201: the file's architecture index per id; nil without the column
	test12 []float64 // NB201: the 12-epoch test accuracy per id (NaN where empty); nil without the column
	best   int       // id of the lowest seed mean, the first in id order on ties
	// bestTest is the highest test accuracy (NB201).
	bestTest float64
}

// Load reads and validates a table file of the given kind. Errors about the
// content are *FormatError values naming the file, the line and the column.
// Loading checks the header (missing, unexpected and repeated columns),
// that every number parses, is finite and in the documented range, that no
// configuration appears twice, and that the file has every configuration of
// its grid (which the documented formats promise and the objective needs).
func Load(kind Kind, path string) (*Table, error) {
	kind, err := ParseKind(string(kind))
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s table: %w", kind, err)
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	r := newReader(path, f, size)
	var t *Table
	if kind == NB201 {
		t, err = loadNB201(r)
	} else {
		t, err = loadGrid(r, schemas[kind])
	}
	if err != nil {
		return nil, err
	}
	t.Kind, t.Path = kind, path
	base := filepath.Base(path)
	t.name = string(kind) + "-" + strings.TrimSuffix(base, filepath.Ext(base))
	t.finish()
	return t, nil
}

// finish computes the seed means and the best configuration. A
// configuration with missing seeds is averaged over the seeds it has.
func (t *Table) finish() {
	n := len(t.vals) / t.nseed
	t.mean = make([]float64, n)
	for id := range n {
		s, c := 0.0, 0
		for _, v := range t.vals[id*t.nseed : (id+1)*t.nseed] {
			if !math.IsNaN(v) {
				s += v
				c++
			}
		}
		t.mean[id] = s / float64(c)
		if t.mean[id] < t.mean[t.best] {
			t.best = id
		}
	}
	if t.test != nil {
		t.bestTest = math.Inf(-1)
		for _, v := range t.test {
			t.bestTest = max(t.bestTest, v)
		}
	}
}

// Name returns the kind and the file's base name without extension, e.g.
// "nb201-cifar10".
func (t *Table) Name() string { return t.name }

// Space returns the search space of the table's configurations.
func (t *Table) Space() *space.Space { return t.sp }

// Len returns the number of configurations.
func (t *Table) Len() int { return len(t.mean) }

// Seeds returns the number of seed columns; a configuration may have fewer
// values (NB201 rows with two training runs).
func (t *Table) Seeds() int { return t.nseed }

// id returns the configuration id of a, which must be a valid assignment of
// the table's space.
func (t *Table) id(a space.Assignment) (int, error) {
	u, err := t.sp.Encode(a)
	if err != nil {
		return 0, fmt.Errorf("%s: %w: %w", t.name, ErrNotInTable, err)
	}
	id := 0
	for i, L := range t.radix {
		// Encode puts level k at the centre (k+½)/L of its cell.
		id = id*L + min(int(u[i]*float64(L)), L-1)
	}
	return id, nil
}

// assignment returns the configuration with the given id.
func (t *Table) assignment(id int) space.Assignment {
	a := make(space.Assignment, len(t.params))
	for i := len(t.params) - 1; i >= 0; i-- {
		p := &t.params[i]
		k := id % t.radix[i]
		id /= t.radix[i]
		if p.Kind == space.Categorical {
			a[p.Name] = p.Choices[k]
		} else {
			a[p.Name] = p.Values[k]
		}
	}
	return a
}

// Objective returns the value to minimise of configuration a: for NB201
// the validation error 100 − accuracy (percent), for HPOBench
// 1 − balanced validation accuracy, for FCNet the validation MSE. With
// noisy, the value of one seed drawn uniformly from the seeds the
// configuration has, as the benchmarks' own APIs answer a query; otherwise
// the mean over those seeds. An assignment outside the table gives an error
// wrapping ErrNotInTable. It panics if noisy and rng is nil.
func (t *Table) Objective(a space.Assignment, noisy bool, rng *rand.Rand) (float64, error) {
	id, err := t.id(a)
	if err != nil {
		return math.NaN(), err
	}
	if !noisy {
		return t.mean[id], nil
	}
	if rng == nil {
		panic("tabular: Objective: noisy evaluation needs a random source")
	}
	row := t.vals[id*t.nseed : (id+1)*t.nseed]
	n := 0
	for _, v := range row {
		if !math.IsNaN(v) {
			n++
		}
	}
	k := rng.IntN(n)
	for _, v := range row {
		if math.IsNaN(v) {
			continue
		}
		if k == 0 {
			return v, nil
		}
		k--
	}
	panic("unreachable")
}

// Optimum returns the lowest seed-mean objective in the table, the
// reference of regret in both the noisy and the deterministic setting.
func (t *Table) Optimum() float64 { return t.mean[t.best] }

// Best returns the configuration with the lowest seed-mean objective (the
// first in the grid's order on ties: the parameters of Space with their
// levels in order, the last parameter varying fastest).
func (t *Table) Best() space.Assignment { return t.assignment(t.best) }

// TestRegret returns, for NB201, the best test accuracy in the table minus
// the test accuracy of cell a (percentage points; the harness passes the
// cell with the best observed validation value). ok is false for the other
// kinds and for an assignment outside the table.
func (t *Table) TestRegret(a space.Assignment) (regret float64, ok bool) {
	acc, ok := t.TestAccuracy(a)
	return t.bestTest - acc, ok
}

// TestAccuracy returns the test accuracy of NB201 cell a (percent), the
// figure a user of the chosen cell gets; ok is false for the other kinds
// and for an assignment outside the table.
func (t *Table) TestAccuracy(a space.Assignment) (acc float64, ok bool) {
	if t.test == nil {
		return math.NaN(), false
	}
	id, err := t.id(a)
	if err != nil {
		return math.NaN(), false
	}
	return t.test[id], true
}

// Index returns the NAS-Bench-201 architecture index of cell a as the
// file's index column gives it, the key other NB201 data (latencies) are
// joined on [../shared/data/nb201]; ok is false for the other kinds, for a
// file without the column and for an assignment outside the table.
func (t *Table) Index(a space.Assignment) (index int, ok bool) {
	if t.index == nil {
		return -1, false
	}
	id, err := t.id(a)
	if err != nil {
		return -1, false
	}
	return t.index[id], true
}

// Accuracy12 returns the test accuracy of NB201 cell a after NB201's
// 12-epoch training schedule (percent, the file's test_acc_12ep: a single
// run, a test, not a validation, accuracy); ok is false for the other
// kinds, for a file without the column, an empty value and an assignment
// outside the table.
func (t *Table) Accuracy12(a space.Assignment) (acc float64, ok bool) {
	if t.test12 == nil {
		return math.NaN(), false
	}
	id, err := t.id(a)
	if err != nil || math.IsNaN(t.test12[id]) {
		return math.NaN(), false
	}
	return t.test12[id], true
}

// BestTestAccuracy returns the highest test accuracy in an NB201 table
// (percent); ok is false for the other kinds.
func (t *Table) BestTestAccuracy() (acc float64, ok bool) {
	if t.test == nil {
		return math.NaN(), false
	}
	return t.bestTest, true
}
