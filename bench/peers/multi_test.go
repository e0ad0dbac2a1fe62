package peers

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// zdt1 in three variables, the problem of the multi-objective tests.
func zdt1(a space.Assignment) []float64 {
	x1, x2, x3 := a["x1"].(float64), a["x2"].(float64), a["x3"].(float64)
	g := 1 + 9*(x2+x3)/2
	return []float64{x1, g * (1 - math.Sqrt(x1/g))}
}

func boxSpace() *space.Space {
	return space.MustNew(
		space.Param{Name: "x1", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "x2", Kind: space.Float, Low: 0, High: 1},
		space.Param{Name: "x3", Kind: space.Float, Low: 0, High: 1},
	)
}

// runMulti asks and tells n times, the second objective told as sign
// times its value, and returns the configurations.
func runMulti(t *testing.T, name string, directions []string, sign float64, n int, keep bool) []space.Assignment {
	t.Helper()
	ctx := context.Background()
	s, err := NewMulti(ctx, name, boxSpace(), 7, directions)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var as []space.Assignment
	for i := range n {
		var a space.Assignment
		var id int64
		if keep {
			id, a, err = s.AskTrial(ctx)
		} else {
			a, err = s.Ask(ctx)
		}
		if err != nil {
			t.Fatalf("%s: ask %d: %v", name, i, err)
		}
		y := zdt1(a)
		y[1] *= sign
		if keep {
			err = s.TellTrialValues(ctx, id, y)
		} else {
			err = s.TellValues(ctx, y)
		}
		if err != nil {
			t.Fatalf("%s: tell %d: %v", name, i, err)
		}
		as = append(as, a)
	}
	return as
}

// TestMultiDirections: the adapter passes the directions to Optuna and
// the values in their senses, so maximising −f2 is minimising f2: with
// one seed, the multi-objective peers propose the same configurations
// whichever way the second objective is told, past NSGA-II's first
// generation (50) and MOTPE's start-up (10), by plain and by kept asks.
// Equal seeds give equal runs.
func TestMultiDirections(t *testing.T) {
	for _, name := range MultiNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			need(t, name)
			n := 60
			if name == OptunaMOTPE {
				n = 25 // MOTPE's model costs a second a trial or so here
			}
			minmin := runMulti(t, name, []string{Minimize, Minimize}, 1, n, false)
			minmax := runMulti(t, name, []string{Minimize, Maximize}, -1, n, true)
			if !reflect.DeepEqual(minmin, minmax) {
				for i := range minmin {
					if !reflect.DeepEqual(minmin[i], minmax[i]) {
						t.Fatalf("trial %d: %v minimising f2, %v maximising −f2", i, minmin[i], minmax[i])
					}
				}
			}
			if name == OptunaRandom {
				return
			}
			// the model is used: telling f2 as maximised, unnegated, is
			// another problem and changes the proposals
			wrong := runMulti(t, name, []string{Minimize, Maximize}, 1, n, false)
			if reflect.DeepEqual(minmin, wrong) {
				t.Errorf("%s proposed the same %d configurations for the opposite direction", name, n)
			}
		})
	}
}

// TestNewMultiRefuses: unknown directions, single-objective peers and
// tells of the wrong number of values fail with a reason.
func TestNewMultiRefuses(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		directions []string
		want       string
	}{
		{OptunaNSGA2, []string{Minimize, "up"}, "direction"},
		{OptunaNSGA2, nil, "no objectives"},
		{OptunaTPE, []string{Minimize, Minimize}, "optimises one objective"},
		{GoptunaTPE, []string{Minimize, Minimize}, "optimises one objective"},
		{"hyperopt", []string{Minimize, Minimize}, "unknown peer"},
	} {
		if _, err := NewMulti(ctx, c.name, boxSpace(), 1, c.directions); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewMulti(%s, %v) = %v; want an error about %q", c.name, c.directions, err, c.want)
		}
	}
	need(t, OptunaNSGA2)
	s, err := NewMulti(ctx, OptunaNSGA2, boxSpace(), 1, []string{Minimize, Minimize})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.TellValues(ctx, []float64{1}); err == nil || !strings.Contains(err.Error(), "2 objectives") {
		t.Errorf("a tell of one value: %v", err)
	}
	if err := s.TellValues(ctx, []float64{1, math.Inf(1)}); err == nil {
		t.Error("a tell of an infinite value succeeded")
	}
	if err := s.TellValues(ctx, []float64{0.5, 2}); err != nil {
		t.Fatal(err)
	}
}
