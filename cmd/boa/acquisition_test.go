package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/boaopt/boa/sampler/gpbo"
	"github.com/boaopt/boa/storage"
	"github.com/boaopt/boa/study"
)

const fitboStudy = `name: fitbo-study
sampler: {type: gpbo, acquisition: fitbo, samples: 10}
trials: 10
seed: 4
space:
  x: {type: float, low: -5, high: 10}
  y: {type: float, low: 0, high: 15}
objective:
  function: branin
`

// TestRunFITBOStudyAndResume: a study file whose sampler is given in the
// mapping form runs with boa run on SQLite; interrupted after some
// trials, boa run --resume opens it with the same sampler and options and
// finishes it; boa best --model reports the model's recommendation.
func TestRunFITBOStudyAndResume(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(fitboStudy, "trials: 10", "trials: 10\nworkers: 1"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	go func() { // interrupt once 7 trials are in: the design and two of FITBO's
		for ctx.Err() == nil {
			if st, err := study.Open(context.Background(), store, "fitbo-study"); err == nil {
				if sum, err := st.Summary(context.Background()); err == nil && sum.States[study.Complete] >= 7 {
					cancel()
					return
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	cmd := rootCmd()
	cmd.SetArgs([]string{"run", file, "--storage", url})
	cmd.SetOut(new(bytes.Buffer))
	cmd.SetErr(new(bytes.Buffer))
	_ = cmd.ExecuteContext(ctx) // interrupted: exits with an error by design
	if st, err := study.Open(context.Background(), store, "fitbo-study"); err != nil {
		t.Fatal(err)
	} else if sum, err := st.Summary(context.Background()); err != nil || sum.States[study.Complete] >= 10 {
		t.Fatalf("the interrupted run completed %v trials (%v); the test needs it stopped early", sum.States, err)
	}
	if _, err := boa(t, "run", file, "--storage", url, "--resume"); err != nil {
		t.Fatal(err)
	}
	st, err := study.Open(context.Background(), store, "fitbo-study")
	if err != nil {
		t.Fatal(err)
	}
	g, ok := st.Sampler().(*gpbo.GPBO)
	if !ok || g.Acquisition != gpbo.AcqFITBO || g.Samples != 10 {
		t.Fatalf("reopened with %T %+v, want gpbo with fitbo and 10 samples", st.Sampler(), st.Sampler())
	}
	trials, err := st.Trials(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	complete := 0
	for _, tr := range trials {
		if tr.State == study.Complete {
			complete++
		}
	}
	if complete != 10 {
		t.Errorf("%d COMPLETE trials after the resume, want 10", complete)
	}
	out, err := boa(t, "best", "fitbo-study", "--storage", url, "--model")
	if err != nil || !strings.Contains(out, "model's recommendation (minimiser of gpbo's posterior mean): predicted") {
		t.Errorf("boa best --model:\n%s%v", out, err)
	}
}

// TestRunRefusesUnknownAcquisition: an acquisition gpbo does not know is
// refused before anything runs, with the field's line and the names it
// knows.
func TestRunRefusesUnknownAcquisition(t *testing.T) {
	file, url := writeStudy(t, strings.ReplaceAll(fitboStudy, "acquisition: fitbo", "acquisition: fitbbo"))
	_, err := boa(t, "run", file, "--storage", url)
	want := `line 2: sampler: sampler gpbo: option acquisition: unknown acquisition "fitbbo"; want one of logei, ei, pi, lcb, ucb, gp-ucb, ts, fitbo, fitbo-mm, mes, pes, kg`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
