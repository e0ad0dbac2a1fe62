package pruning

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
)

// EnvNMTLC names the environment variable that, when set, overrides the
// default location of nmtlc.jsonl (the data lives outside the repository
// and is never copied into it).
const EnvNMTLC = "BOA_NMTLC"

// DefaultNMTLC is where nmtlc.jsonl lives relative to the repository root:
// in ../shared/data beside the repository.
const DefaultNMTLC = "../shared/data/nmtlc/nmtlc.jsonl"

// Run is one training run of NMTLC (../shared/data/nmtlc/README.md).
type Run struct {
	Index       int                // 0-based position in the source pickle
	Task        string             // "scratch" or "finetune"
	Dataset     string             // dataset_name, e.g. "ted-zh-en"
	BaseModel   string             // "scratch", "bloomz" or "xglm"
	Hyperparams map[string]float64 // initial_lr, model_size, num_layers, …
	Curve       []float64          // dev-set perplexity per checkpoint, lower better
}

// Best is the run's perplexity_optimal, the lowest perplexity of its curve:
// the model kept when the best checkpoint is selected on the dev set.
func (r Run) Best() float64 { return slices.Min(r.Curve) }

// Corpus names the group of runs that compete in one study: the task and
// the dataset, and for fine-tuned runs the base model too, since fine-tuning
// BLOOMZ and XGLM are two separate search problems on one corpus (the
// README's table lists them apart).
func (r Run) Corpus() string {
	if r.BaseModel == "" || r.BaseModel == r.Task {
		return r.Task + "/" + r.Dataset
	}
	return r.Task + "/" + r.Dataset + "/" + r.BaseModel
}

// ByCorpus groups runs by Corpus, keeping the file order within a group,
// and returns the corpus names sorted.
func ByCorpus(runs []Run) ([]string, map[string][]Run) {
	groups := map[string][]Run{}
	for _, r := range runs {
		groups[r.Corpus()] = append(groups[r.Corpus()], r)
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, groups
}

// record is one line of nmtlc.jsonl as written; pointers tell a missing
// field from a zero one. Other fields (src, trg, max_len, the BLEU curves)
// are not needed by the benchmark and are ignored.
type record struct {
	Index       *int               `json:"index"`
	Task        *string            `json:"task"`
	Dataset     *string            `json:"dataset_name"`
	BaseModel   *string            `json:"basemodel"`
	Hyperparams map[string]float64 `json:"hyperparams"`
	Curve       []float64          `json:"perplexity_curve"`
	Optimal     *float64           `json:"perplexity_optimal"`
}

// LoadNMTLC reads nmtlc.jsonl, one run per line. It refuses, naming the
// file and the line, a line that is not a JSON object, a missing field, a
// repeated index, an empty curve, a perplexity that is not finite or below
// 1 (perplexity is exp of a cross-entropy), and a perplexity_optimal that
// is not the curve's minimum: the benchmark scores trials by that minimum,
// so a file where the two disagree is not the documented one.
func LoadNMTLC(path string) ([]Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	// The longest curve has 569 values; a fine-tuned line also holds a BLEU
	// curve. 16 MiB leaves ample room without being unbounded.
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	var runs []Run
	seen := map[int]int{} // index → line
	for line := 1; sc.Scan(); line++ {
		r, err := parseRun(sc.Bytes())
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		if prev, ok := seen[r.Index]; ok {
			return nil, fmt.Errorf("%s:%d: index %d already on line %d", path, line, r.Index, prev)
		}
		seen[r.Index] = line
		runs = append(runs, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, len(runs)+1, err)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no runs", path)
	}
	return runs, nil
}

func parseRun(b []byte) (Run, error) {
	if len(b) == 0 {
		return Run{}, errors.New("empty line, want one JSON object per line")
	}
	var rec record
	if err := json.Unmarshal(b, &rec); err != nil {
		return Run{}, fmt.Errorf("not a JSON run record: %w", err)
	}
	var missing []string
	for name, absent := range map[string]bool{
		"index": rec.Index == nil, "task": rec.Task == nil, "dataset_name": rec.Dataset == nil,
		"basemodel": rec.BaseModel == nil, "hyperparams": rec.Hyperparams == nil,
		"perplexity_curve": rec.Curve == nil, "perplexity_optimal": rec.Optimal == nil,
	} {
		if absent {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return Run{}, fmt.Errorf("missing field(s) %q", missing)
	}
	if *rec.Index < 0 {
		return Run{}, fmt.Errorf("index %d, want ≥ 0", *rec.Index)
	}
	if len(rec.Curve) == 0 {
		return Run{}, errors.New("empty perplexity_curve")
	}
	for i, v := range rec.Curve {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 1 {
			return Run{}, fmt.Errorf("perplexity_curve[%d] = %v, want a finite perplexity ≥ 1", i, v)
		}
	}
	if m := slices.Min(rec.Curve); *rec.Optimal != m {
		return Run{}, fmt.Errorf("perplexity_optimal = %v but the curve's minimum is %v", *rec.Optimal, m)
	}
	return Run{
		Index:       *rec.Index,
		Task:        *rec.Task,
		Dataset:     *rec.Dataset,
		BaseModel:   *rec.BaseModel,
		Hyperparams: rec.Hyperparams,
		Curve:       rec.Curve,
	}, nil
}
