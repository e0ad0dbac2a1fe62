package main

import (
	"context"
	"path/filepath"
	"testing"

	_ "github.com/boaopt/boa/examples/custom-sampler/perturb" // a sampler registered from outside boa's sampler tree
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

// TestRunCustomSampler: a sampler registered from a user's package runs a
// study file through boa run into SQLite, boa run --resume opens the
// finished study with it again, and so does study.Open, by its stored name.
func TestRunCustomSampler(t *testing.T) {
	file, url := writeStudy(t, `name: custom
sampler: perturb
trials: 8
seed: 2
space:
  x: {type: float, low: -2, high: 2}
objective:
  command: [sh, -c, 'echo "BOA_RESULT $0"', "{x}"]
  timeout: 30s
  logs: `+filepath.Join(t.TempDir(), "logs")+`
`)
	if _, err := boa(t, "run", file, "--storage", url); err != nil {
		t.Fatal(err)
	}
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	store, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	st, err := study.Open(ctx, store, "custom")
	if err != nil {
		t.Fatal(err)
	}
	trials, err := st.Trials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]int{}
	for _, tr := range trials {
		if tr.State != study.Complete {
			t.Errorf("trial %d is %v: %s", tr.Number, tr.State, tr.Reason)
		}
		origins[string(tr.Origin)]++
	}
	if st.Sampler().Name() != "perturb" || len(trials) != 8 || origins["design"] != 5 || origins["model"] != 3 {
		t.Errorf("sampler %s, %d trials with origins %v; want perturb, 8, 5 design and 3 model", st.Sampler().Name(), len(trials), origins)
	}
}
