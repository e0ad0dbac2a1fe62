package constrained

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/boaopt/boa/problems/tabular"
)

// HELPReference is one published result of latency-constrained NAS on
// NB201 CIFAR-100 by MetaD2A + HELP (Lee et al. 2021): the cell found under
// a device's latency constraint [reference code: HayeonLee/HELP], as
// help_reference_results.csv records it [../shared/data/nb201-latency]. It
// is a point to print beside the true optimum, not a feasible optimum:
// several of these cells exceed their own constraint [spec
// constrained-autotinyml §7.4].
type HELPReference struct {
	Device          string  // latency column
	ConfigDir       string  // the folder of HELP's architecture_config
	Constraint      float64 // the latency constraint L (ms), Table 4 of HELP's README
	FileLatency     float64 // ms, from the result file's name
	TableLatency    float64 // ms, as Table 4 of HELP's README prints it
	Accuracy        float64 // percent, from the result file's name (one decimal)
	Index           int     // NB201 index of the found cell
	Arch            string  // its arch string
	MeasuredLatency float64 // its latency in the latency file (ms)
	TestAcc         float64 // its 200-epoch CIFAR-100 test accuracy (percent)
}

// helpColumns are the columns of help_reference_results.csv.
var helpColumns = []string{
	"device", "config_dir", "latency_constraint_ms", "file_latency_ms", "accuracy_pct",
	"table_latency_ms", "index", "arch", "measured_latency_ms", "nb201_cifar100_test_acc",
}

// LoadHELPReferences reads help_reference_results.csv (columns in any
// order). Errors are *tabular.FormatError values naming the line and
// column.
func LoadHELPReferences(path string) ([]HELPReference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("HELP references: %w", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	ferr := func(line, col int, name, format string, args ...any) error {
		return &tabular.FormatError{Path: path, Line: line, Column: col, Name: name, Msg: fmt.Sprintf(format, args...)}
	}
	if len(recs) < 2 {
		return nil, ferr(0, 0, "", "no data rows; want the header %s and one row per result", strings.Join(helpColumns, ","))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[strings.TrimPrefix(strings.TrimSpace(h), "\ufeff")] = i
	}
	var missing []string
	for _, c := range helpColumns {
		if _, ok := col[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, ferr(1, 0, "", "header: missing columns %s; want %s", strings.Join(missing, ", "), strings.Join(helpColumns, ","))
	}
	refs := make([]HELPReference, 0, len(recs)-1)
	for n, rec := range recs[1:] {
		line := n + 2
		str := func(name string) string { return strings.TrimSpace(rec[col[name]]) }
		num := func(name string) (float64, error) {
			s := str(name)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return 0, ferr(line, col[name]+1, name, "%q is not a finite number ≥ 0", s)
			}
			return v, nil
		}
		r := HELPReference{Device: str("device"), ConfigDir: str("config_dir"), Arch: str("arch")}
		for _, fld := range []struct {
			name string
			dst  *float64
		}{
			{"latency_constraint_ms", &r.Constraint}, {"file_latency_ms", &r.FileLatency},
			{"accuracy_pct", &r.Accuracy}, {"table_latency_ms", &r.TableLatency},
			{"measured_latency_ms", &r.MeasuredLatency}, {"nb201_cifar100_test_acc", &r.TestAcc},
		} {
			if *fld.dst, err = num(fld.name); err != nil {
				return nil, err
			}
		}
		if r.Index, err = strconv.Atoi(str("index")); err != nil || r.Index < 0 || r.Index >= nb201Cells {
			return nil, ferr(line, col["index"]+1, "index", "%q is not an NB201 index 0..%d", str("index"), nb201Cells-1)
		}
		refs = append(refs, r)
	}
	return refs, nil
}
