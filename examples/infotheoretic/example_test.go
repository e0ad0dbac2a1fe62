package infotheoretic

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boaopt/boa/internal/boaproc"
)

func TestMain(m *testing.M) { os.Exit(boaproc.Main(m)) }

// TestStudyFile runs svm_digits.yaml as the README says, with 5 trials
// instead of 25, 10 ESS samples and a private SQLite file: every trial
// completes with a cross-validated error in (0, 1), and boa best --model
// names the model's recommendation.
func TestStudyFile(t *testing.T) {
	path := boaproc.PythonOnPath(t, "sklearn") // the study file says python3: the one with scikit-learn
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	dir := t.TempDir()
	src, err := os.ReadFile("svm_digits.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The copy is elsewhere: its command runs in the repository root, as
	// the file's dir: ../.. says of the original.
	doc := strings.NewReplacer("trials: 25", "trials: 5", "samples: 50", "samples: 10", "dir: ../..", "dir: "+root).Replace(string(src))
	file := filepath.Join(dir, "svm_digits.yaml")
	if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	storage := "sqlite:" + filepath.Join(dir, "boa.db")
	run := boaproc.Runner(t, root, path)
	run("run", file, "--storage", storage)
	out := run("best", "svm-digits-fitbo", "--model", "--storage", storage)
	if !strings.Contains(out, "best trial") || !strings.Contains(out, "model's recommendation") || !strings.Contains(out, "gamma = ") {
		t.Errorf("boa best --model:\n%s", out)
	}
	trials := run("trials", "svm-digits-fitbo", "--storage", storage)
	if n := strings.Count(trials, "COMPLETE"); n != 5 {
		t.Errorf("%d COMPLETE trials, want 5:\n%s", n, trials)
	}
}
