package constrained

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boaopt/boa/graph"
	"github.com/boaopt/boa/problems/tabular"
	"github.com/boaopt/boa/space"
)

// NAS-Bench-201 with a latency limit [spec constrained-autotinyml §7.4]:
// minimise the CIFAR-100 validation error 100 − valid_acc_mean over the
// 15,625 cells subject to latency(device) ≤ L, with the latencies HELP
// measured on 24 device settings (Lee et al. 2021) [../shared/data/nb201-latency].
// The accuracies come from the nb201 table of problems/tabular
// [../shared/data/nb201], so the cell space, the objective and the test
// accuracies are those of the unconstrained problem.

// LatencyPrefix starts the name of every latency-limited NB201 problem:
// nb201-latency:DEVICE:L, with L in milliseconds.
const LatencyPrefix = "nb201-latency"

// LatencyConstraint is the name of the one constraint, latency ≤ L in ms.
const LatencyConstraint = "latency_ms"

// Mode says when an optimiser learns a cell's latency [spec §7.4].
type Mode int

const (
	// Coupled: the latency comes with the evaluation, as every constraint
	// of SVM-CBO does [spec §1]; Latency refuses to answer.
	Coupled Mode = iota
	// Decoupled: the latency of any cell can be queried for free before
	// choosing, as a constraint known without training can [004 §9].
	Decoupled
)

// String returns "coupled" or "decoupled".
func (m Mode) String() string {
	switch m {
	case Coupled:
		return "coupled"
	case Decoupled:
		return "decoupled"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads "coupled" or "decoupled" (in any case).
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "coupled":
		return Coupled, nil
	case "decoupled":
		return Decoupled, nil
	}
	return 0, fmt.Errorf("constrained: constraint mode %q: want coupled or decoupled", s)
}

var (
	// ErrUnknownDevice is wrapped when a device is not a column of the
	// latency file.
	ErrUnknownDevice = errors.New("unknown latency device")
	// ErrCoupled is wrapped by Latency in coupled mode, where the latency
	// is known only with the evaluation.
	ErrCoupled = errors.New("latency is coupled: known only with the evaluation")
)

// nb201Cells is the number of NB201 cells, 5⁶.
const nb201Cells = 15625

// NB201Latency is the latency file joined with the CIFAR-100 table. It is
// immutable after loading and safe for concurrent use; its problems share it.
type NB201Latency struct {
	sp      *space.Space
	devices []string
	lat     [][]float64        // lat[device][cell]
	cells   []space.Assignment // by cell id, the grid order of problems/tabular
	arch    []string           // NB201 arch string by cell id
	obj     []float64          // 100 − valid_acc_mean by cell id
	test    []float64          // 200-epoch test accuracy by cell id
	index   []int              // NB201 index by cell id
	byIndex []int              // cell id by NB201 index
}

// LoadNB201Latency reads the latency file (index, arch, then one column of
// milliseconds per device setting) and the CIFAR-100 table (through
// tabular.Load), and joins them. Both files carry the NB201 index and the
// arch string; the join is by arch string and refuses a row whose index
// differs from the CIFAR-100 table's index of the same cell, so the two
// keys are checked to agree on every row. Errors about the latency file
// are *tabular.FormatError values naming the line and column.
func LoadNB201Latency(latencyPath, cifar100Path string) (*NB201Latency, error) {
	tb, err := tabular.Load(tabular.NB201, cifar100Path)
	if err != nil {
		return nil, err
	}
	d := &NB201Latency{
		sp:      tb.Space(),
		cells:   make([]space.Assignment, nb201Cells),
		arch:    make([]string, nb201Cells),
		obj:     make([]float64, nb201Cells),
		test:    make([]float64, nb201Cells),
		index:   make([]int, nb201Cells),
		byIndex: make([]int, nb201Cells),
	}
	cellOf := make(map[string]int, nb201Cells)
	for id := range nb201Cells {
		a, arch := nb201Cell(id)
		d.cells[id], d.arch[id], cellOf[arch] = a, arch, id
		d.obj[id], err = tb.Objective(a, false, nil)
		if err != nil {
			return nil, err
		}
		d.test[id], _ = tb.TestAccuracy(a)
		k, ok := tb.Index(a)
		if !ok {
			return nil, fmt.Errorf("%s: no index column; the latency join needs the NB201 index [../shared/data/nb201]", cifar100Path)
		}
		if k >= nb201Cells {
			return nil, fmt.Errorf("%s: cell %s has index %d; NB201 indices are 0..%d", cifar100Path, arch, k, nb201Cells-1)
		}
		d.index[id] = k
	}
	for i := range d.byIndex {
		d.byIndex[i] = -1
	}
	for id, k := range d.index {
		if d.byIndex[k] >= 0 {
			return nil, fmt.Errorf("%s: index %d is given to two cells, %s and %s", cifar100Path, k, d.arch[d.byIndex[k]], d.arch[id])
		}
		d.byIndex[k] = id
	}
	if err := d.readLatencies(latencyPath, cellOf); err != nil {
		return nil, err
	}
	return d, nil
}

// nb201Cell returns the cell with the given id and its arch string. The id
// is the mixed-radix number of the edges' operations in NB201's order, the
// last edge fastest, as problems/tabular numbers its grid.
func nb201Cell(id int) (space.Assignment, string) {
	var ops [graph.NB201Edges]string
	a := make(space.Assignment, graph.NB201Edges)
	for e := graph.NB201Edges - 1; e >= 0; e-- {
		ops[e] = graph.NB201Ops[id%len(graph.NB201Ops)]
		a[graph.NB201EdgeNames[e]] = ops[e]
		id /= len(graph.NB201Ops)
	}
	return a, graph.NB201Arch(ops)
}

// readLatencies reads the latency file into d, joining on cellOf.
func (d *NB201Latency) readLatencies(path string, cellOf map[string]int) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("nb201 latency file: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.ReuseRecord = true
	ferr := func(line, col int, name, format string, args ...any) error {
		return &tabular.FormatError{Path: path, Line: line, Column: col, Name: name, Msg: fmt.Sprintf(format, args...)}
	}
	header, err := cr.Read()
	if err == io.EOF {
		return ferr(0, 0, "", "the file is empty; want the header index, arch, then one column per device")
	} else if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	header = slices.Clone(header)
	if len(header) < 3 || strings.TrimPrefix(header[0], "\ufeff") != "index" || header[1] != "arch" {
		return ferr(1, 0, "", "header %q: want index, arch, then one column per device", strings.Join(header, ","))
	}
	d.devices = header[2:]
	for i, dev := range d.devices {
		if dev == "" || slices.Contains(d.devices[:i], dev) {
			return ferr(1, i+3, dev, "device column %q is empty or repeated", dev)
		}
	}
	d.lat = make([][]float64, len(d.devices))
	for i := range d.lat {
		d.lat[i] = make([]float64, nb201Cells)
	}
	seen := make([]bool, nb201Cells)
	rows := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		line, _ := cr.FieldPos(0)
		rows++
		arch := strings.TrimSpace(rec[1])
		id, ok := cellOf[arch]
		if !ok {
			return ferr(line, 2, "arch", "%q is not an NB201 arch string |op~0|+|op~0|op~1|+|op~0|op~1|op~2| with op in %s",
				arch, strings.Join(graph.NB201Ops, ", "))
		}
		k, err := strconv.Atoi(strings.TrimSpace(rec[0]))
		if err != nil || k != d.index[id] {
			return ferr(line, 1, "index", "index %q, but the accuracy table gives cell %s the index %d: the two files disagree on the join", rec[0], arch, d.index[id])
		}
		if seen[id] {
			return ferr(line, 2, "arch", "cell %s appears twice", arch)
		}
		seen[id] = true
		for j := range d.devices {
			s := strings.TrimSpace(rec[j+2])
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || !(v > 0) || math.IsInf(v, 0) {
				return ferr(line, j+3, d.devices[j], "%q is not a latency (a finite number of ms > 0)", s)
			}
			d.lat[j][id] = v
		}
	}
	if rows != nb201Cells {
		return ferr(0, 0, "", "%d data rows; want one per NB201 cell (%d)", rows, nb201Cells)
	}
	return nil
}

// Devices returns the device settings, the latency file's columns in its
// order (e.g. fpga, gold_6226, pixel2, titan_rtx_256).
func (d *NB201Latency) Devices() []string { return slices.Clone(d.devices) }

// Space returns the cell space: one categorical parameter per edge
// (graph.NB201Space), the space of the unconstrained nb201 tables.
func (d *NB201Latency) Space() *space.Space { return d.sp }

// Cell returns the cell with NAS-Bench-201 index k and its arch string.
func (d *NB201Latency) Cell(k int) (space.Assignment, string, error) {
	if k < 0 || k >= nb201Cells {
		return nil, "", fmt.Errorf("constrained: NB201 index %d: want 0..%d", k, nb201Cells-1)
	}
	id := d.byIndex[k]
	return maps.Clone(d.cells[id]), d.arch[id], nil
}

// device returns the column of a device name (case-insensitive).
func (d *NB201Latency) device(name string) (int, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for i, dev := range d.devices {
		if strings.ToLower(dev) == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("constrained: %w %q; the devices are %s", ErrUnknownDevice, name, strings.Join(d.devices, ", "))
}

// cell returns the cell id of a, which must be valid in Space().
func (d *NB201Latency) cell(a space.Assignment) (int, error) {
	c, err := d.sp.Canonical(a)
	if err != nil {
		return 0, err
	}
	id := 0
	for _, e := range graph.NB201EdgeNames {
		id = id*len(graph.NB201Ops) + slices.Index(graph.NB201Ops, c[e].(string)) // categorical values are strings once canonical
	}
	return id, nil
}

// Columns returns, for every cell in grid order (the order CellID
// numbers), the table's validation error 100 − valid_acc_mean (percent,
// the seed mean), its 200-epoch test accuracy (percent) and its latency on
// device (ms), the columns a multi-objective problem of accuracy against
// latency is made of (problems/multiobjective). The slices are copies.
func (d *NB201Latency) Columns(device string) (validErr, testAcc, latency []float64, err error) {
	dev, err := d.device(device)
	if err != nil {
		return nil, nil, nil, err
	}
	return slices.Clone(d.obj), slices.Clone(d.test), slices.Clone(d.lat[dev]), nil
}

// CellID returns the position of cell a in grid order, the index of
// Columns' slices; a must be valid in Space().
func (d *NB201Latency) CellID(a space.Assignment) (int, error) { return d.cell(a) }

// CellAt returns the cell at position id in grid order and its NB201 arch
// string.
func (d *NB201Latency) CellAt(id int) (space.Assignment, string, error) {
	if id < 0 || id >= nb201Cells {
		return nil, "", fmt.Errorf("constrained: cell position %d: want 0..%d", id, nb201Cells-1)
	}
	return maps.Clone(d.cells[id]), d.arch[id], nil
}
