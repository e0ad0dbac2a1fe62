package constrained

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boaopt/boa/internal/boaproc"
)

func TestMain(m *testing.M) { os.Exit(boaproc.Main(m)) }

// TestStudyFile runs study.yaml as the README says, with 6 trials instead
// of 30 and a private SQLite file: every trial completes, each is judged
// against model_kb <= 500 with its measured size, and boa best names a
// feasible one.
func TestStudyFile(t *testing.T) {
	path := boaproc.PythonOnPath(t, "sklearn") // the study file says python3: the one with scikit-learn
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir := t.TempDir()
	src, err := os.ReadFile("study.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "study.yaml")
	// The copy is elsewhere: its command runs in the repository root, as
	// the file's dir: ../.. says of the original.
	doc := strings.NewReplacer("trials: 30", "trials: 6", "dir: ../..", "dir: "+root).Replace(string(src))
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	storage := "sqlite:" + filepath.Join(dir, "boa.db")
	run := boaproc.Runner(t, root, path)
	run("run", file, "--storage", storage)

	rows, err := csv.NewReader(strings.NewReader(run("export", "forest-500kb", "--format", "csv", "--storage", storage))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	if len(rows) != 7 {
		t.Fatalf("%d trials exported, want 6", len(rows)-1)
	}
	for _, r := range rows[1:] {
		kb, err := strconv.ParseFloat(r[col["metric:model_kb"]], 64)
		if r[col["state"]] != "COMPLETE" || err != nil {
			t.Fatalf("trial %s: state %s, model_kb %q (%v)", r[col["number"]], r[col["state"]], r[col["metric:model_kb"]], err)
		}
		if want := strconv.FormatBool(kb <= 500); r[col["feasible"]] != want {
			t.Errorf("trial %s: model_kb %g, feasible %q, want %s", r[col["number"]], kb, r[col["feasible"]], want)
		}
	}

	var best struct {
		Value    float64            `json:"value"`
		Feasible *bool              `json:"feasible"`
		Metrics  map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(run("best", "forest-500kb", "--json", "--storage", storage)), &best); err != nil {
		t.Fatal(err)
	}
	if best.Feasible == nil || !*best.Feasible || best.Metrics["model_kb"] > 500 || best.Value < 0.8 {
		t.Errorf("best: %+v, want a feasible forest of accuracy > 0.8", best)
	}
}
