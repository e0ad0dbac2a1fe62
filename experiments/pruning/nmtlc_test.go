package pruning

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nmtlcPath is the data file: $BOA_NMTLC, or DefaultNMTLC seen from this
// package's directory (tests run in experiments/pruning, two levels below the
// repository root).
func nmtlcPath() string {
	if p := os.Getenv(EnvNMTLC); p != "" {
		return p
	}
	return filepath.Join("..", "..", DefaultNMTLC)
}

// loadReal loads the real file or skips the test: the data is third-party
// and lives beside the repository, not in it.
func loadReal(tb testing.TB) []Run {
	tb.Helper()
	runs, err := LoadNMTLC(nmtlcPath())
	if err != nil {
		if _, statErr := os.Stat(nmtlcPath()); statErr != nil {
			tb.Skipf("NMTLC data absent: %v; the benchmark data lives in ../shared/data (or set %s)", err, EnvNMTLC)
		}
		tb.Fatal(err)
	}
	return runs
}

// TestLoadNMTLCReal checks the file against the sanity values of
// ../shared/data/nmtlc/README.md, so that a changed or truncated file is
// noticed before it changes the benchmark's numbers.
func TestLoadNMTLCReal(t *testing.T) {
	runs := loadReal(t)
	if len(runs) != 2483 {
		t.Fatalf("%d runs, the README says 2483", len(runs))
	}
	names, groups := ByCorpus(runs)
	want := map[string]int{
		"finetune/fr-en/bloomz":  81,
		"finetune/fr-en/xglm":    81,
		"finetune/zh-en/bloomz":  81,
		"finetune/zh-en/xglm":    78,
		"scratch/material-so-en": 646,
		"scratch/material-sw-en": 819,
		"scratch/robust19-en-ja": 179,
		"scratch/robust19-ja-en": 177,
		"scratch/ted-ru-en":      193,
		"scratch/ted-zh-en":      148,
	}
	if len(names) != len(want) {
		t.Errorf("corpora %q, want the README's %d", names, len(want))
	}
	for name, n := range want {
		if got := len(groups[name]); got != n {
			t.Errorf("%s: %d runs, the README says %d", name, got, n)
		}
	}
	values, shortest, longest := 0, len(runs[0].Curve), 0
	best, worst := runs[0], runs[0]
	for i, r := range runs {
		if r.Index != i {
			t.Fatalf("line %d has index %d; the converter numbers lines from 0", i+1, r.Index)
		}
		values += len(r.Curve)
		shortest, longest = min(shortest, len(r.Curve)), max(longest, len(r.Curve))
		if r.Best() < best.Best() {
			best = r
		}
		if r.Best() > worst.Best() {
			worst = r
		}
	}
	if values != 126074 || shortest != 2 || longest != 569 {
		t.Errorf("curves: %d values, lengths %d..%d; the README says 126074 values, lengths 2..569", values, shortest, longest)
	}
	if best.Best() != 2.2123873233795166 || best.Index != 2453 || best.Corpus() != "finetune/fr-en/bloomz" {
		t.Errorf("lowest perplexity_optimal %v at index %d (%s); the README says 2.2123873233795166 at 2453, finetune fr-en",
			best.Best(), best.Index, best.Corpus())
	}
	if worst.Best() != 498.443502 {
		t.Errorf("highest perplexity_optimal %v, the README says 498.443502", worst.Best())
	}
	if lr, ok := runs[0].Hyperparams["initial_lr"]; !ok || lr != 0.0003 {
		t.Errorf("run 0: initial_lr = %v (present %v), the file says 0.0003", lr, ok)
	}
}

func TestLoadNMTLCMalformed(t *testing.T) {
	good := `{"index": 0, "task": "scratch", "dataset_name": "d", "basemodel": "scratch", "hyperparams": {"bpe": 1}, "perplexity_curve": [3, 2.5], "perplexity_optimal": 2.5}`
	for _, c := range []struct{ name, line, want string }{
		{"syntax", `{"index": 1,`, "not a JSON run record"},
		{"NaN", strings.Replace(good, "[3, 2.5]", "[NaN, 2.5]", 1), "not a JSON run record"},
		{"array", `[1, 2]`, "not a JSON run record"},
		{"missing", `{"index": 1, "task": "scratch"}`, `missing field(s) ["basemodel" "dataset_name" "hyperparams" "perplexity_curve" "perplexity_optimal"]`},
		{"empty curve", strings.Replace(good, "[3, 2.5]", "[]", 1), "empty perplexity_curve"},
		{"below 1", strings.Replace(good, "[3, 2.5]", "[0.5, 2.5]", 1), "perplexity_curve[0] = 0.5"},
		{"optimal", strings.Replace(good, `"perplexity_optimal": 2.5`, `"perplexity_optimal": 3`, 1), "the curve's minimum is 2.5"},
		{"repeated index", good, "index 0 already on line 1"},
		{"blank", "", "empty line"},
		{"negative index", strings.Replace(good, `"index": 0`, `"index": -1`, 1), "index -1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nmtlc.jsonl")
			body := good + "\n" + strings.Replace(good, `"index": 0`, `"index": 1`, 1) + "\n" + c.line + "\n"
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadNMTLC(path)
			if err == nil || !strings.Contains(err.Error(), path+":3: ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %s:3 and saying %q", err, path, c.want)
			}
		})
	}
	if _, err := LoadNMTLC(filepath.Join(t.TempDir(), "absent.jsonl")); !os.IsNotExist(err) {
		t.Errorf("absent file: %v, want a not-exist error", err)
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNMTLC(empty); err == nil || !strings.Contains(err.Error(), "no runs") {
		t.Errorf("empty file: %v, want \"no runs\"", err)
	}
}
