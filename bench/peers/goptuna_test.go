package peers

import (
	"context"
	"strings"
	"testing"

	"github.com/c-bata/goptuna"
)

type panicky struct{}

func (panicky) Sample(*goptuna.Study, goptuna.FrozenTrial, string, any) (float64, error) {
	panic("sampler bug")
}

// TestGoptunaPanic checks that a panic inside goptuna fails the Ask instead
// of the benchmark.
func TestGoptunaPanic(t *testing.T) {
	g, err := newGoptuna(mixedSpace(), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	g.study.Sampler = panicky{}
	a, err := g.Ask(context.Background())
	if err == nil || !strings.Contains(err.Error(), "goptuna panicked: sampler bug") || a != nil {
		t.Errorf("Ask = %v, %v; want nil and the panic as an error", a, err)
	}
}

// TestGoptunaStates checks the trial states goptuna records: an Ask that is
// never told fails, a told one completes with its value.
func TestGoptunaStates(t *testing.T) {
	ctx := context.Background()
	g, err := newGoptuna(mixedSpace(), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	g.Ask(ctx)
	g.Ask(ctx)
	if err := g.Tell(ctx, 0.25); err != nil {
		t.Fatal(err)
	}
	trials, err := g.study.GetTrials()
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 2 || trials[0].State != goptuna.TrialStateFail ||
		trials[1].State != goptuna.TrialStateComplete || trials[1].Value != 0.25 {
		t.Errorf("trials %+v; want one failed, one complete with 0.25", trials)
	}
}

// TestGoptunaCloseConcurrent closes a goptuna session while another
// goroutine asks and tells, as Session allows: run with -race, Close's
// unguarded write of the closed flag was a data race with Ask's read.
func TestGoptunaCloseConcurrent(t *testing.T) {
	ctx := context.Background()
	g, err := newGoptuna(mixedSpace(), 1, false)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() {
		for {
			if _, err := g.Ask(ctx); err != nil {
				done <- err
				return
			}
			if err := g.Tell(ctx, 1); err != nil {
				done <- err
				return
			}
		}
	}()
	g.Close()
	if err := <-done; err != errClosed {
		t.Errorf("Ask or Tell after Close = %v, want %v", err, errClosed)
	}
}
