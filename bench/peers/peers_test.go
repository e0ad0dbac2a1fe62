package peers

import (
	"context"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boaopt/boa/space"
)

// mixedSpace has every kind a peer must map: two floats (one on a log
// scale), a log-scale int, an unevenly spaced ordinal, a categorical and a
// child active for one category, declared before its parent.
func mixedSpace() *space.Space {
	return space.MustNew(
		space.Param{Name: "x", Kind: space.Float, Low: -5, High: 5},
		space.Param{Name: "lr", Kind: space.Float, Low: 1e-4, High: 1, Log: true},
		space.Param{Name: "depth", Kind: space.Int, Low: 1, High: 64, Log: true},
		space.Param{Name: "width", Kind: space.Ordinal, Values: []float64{16, 32, 64, 128}},
		space.Param{Name: "momentum", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"opt": {"sgd"}}},
		space.Param{Name: "opt", Kind: space.Categorical, Choices: []string{"adam", "sgd", "rmsprop"}},
	)
}

// mixedObjective has its minimum at x = 1, lr = 0.01, depth = 8, width = 64,
// opt = sgd, momentum = 0.9.
func mixedObjective(a space.Assignment) float64 {
	v := sq(a["x"].(float64)-1) + sq(math.Log10(a["lr"].(float64))+2) +
		sq(math.Log2(float64(a["depth"].(int)))-3) + sq(math.Log2(a["width"].(float64))-6)
	if a["opt"] == "sgd" {
		v += sq(a["momentum"].(float64) - 0.9)
	} else {
		v += 1
	}
	return v
}

func sq(x float64) float64 { return x * x }

// need skips the test when the peer cannot run here.
func need(t testing.TB, name string) {
	t.Helper()
	if ok, reason := Available(name); !ok {
		t.Skipf("%s is not available: %s", name, reason)
	}
}

// run asks and tells n times and returns the configurations and values.
func run(t testing.TB, name string, sp *space.Space, seed uint64, n int, f func(space.Assignment) float64) ([]space.Assignment, []float64) {
	t.Helper()
	ctx := context.Background()
	s, err := New(ctx, name, sp, seed)
	if err != nil {
		t.Fatalf("New(%s): %v", name, err)
	}
	defer s.Close()
	return drive(t, name, s, sp, n, f)
}

// drive asks and tells n times on an open session.
func drive(t testing.TB, name string, s Session, sp *space.Space, n int, f func(space.Assignment) float64) ([]space.Assignment, []float64) {
	t.Helper()
	ctx := context.Background()
	var as []space.Assignment
	var vs []float64
	for i := range n {
		a, err := s.Ask(ctx)
		if err != nil {
			t.Fatalf("%s: ask %d: %v", name, i, err)
		}
		if err := sp.Validate(a); err != nil {
			t.Fatalf("%s: ask %d gave an invalid configuration %v: %v", name, i, a, err)
		}
		v := f(a)
		if err := s.Tell(ctx, v); err != nil {
			t.Fatalf("%s: tell %d: %v", name, i, err)
		}
		as, vs = append(as, a), append(vs, v)
	}
	return as, vs
}

func TestNames(t *testing.T) {
	want := []string{"goptuna-tpe", "goptuna-cmaes", "optuna-tpe", "optuna-tpe-cl", "optuna-tpe-c", "optuna-tpe-hb", "optuna-cmaes", "optuna-random", "optuna-nsga2", "optuna-motpe"}
	if got := Names(); !slices.Equal(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	for _, name := range []string{"goptuna-tpe", "goptuna-cmaes"} {
		if ok, reason := Available(name); !ok {
			t.Errorf("Available(%s) = false (%s), want true: goptuna is compiled in", name, reason)
		}
	}
	ok, reason := Available("hyperopt")
	if ok || !strings.Contains(reason, "unknown peer") {
		t.Errorf("Available(hyperopt) = %v, %q; want false, unknown peer", ok, reason)
	}
	if _, err := New(context.Background(), "hyperopt", mixedSpace(), 1); err == nil {
		t.Error("New(hyperopt) succeeded")
	}
}

// TestSession runs every peer for 40 trials on the mixed space, twice with
// one seed. Every answer is a valid configuration and the conditional child
// appears exactly when its condition holds (Validate checks both
// directions), at least once each way. Equal seeds give equal runs
// (goptuna-tpe: only its random start-up, see the package documentation).
// The second session then checks the misuse every peer must refuse.
// Starting an Optuna process takes about half a second, hence few sessions.
func TestSession(t *testing.T) {
	sp := mixedSpace()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			need(t, name)
			a, _ := run(t, name, sp, 3, 40, mixedObjective)
			with := 0
			for _, x := range a {
				if _, ok := x["momentum"]; ok {
					with++
				}
			}
			if with == 0 || with == len(a) {
				t.Errorf("momentum active in %d of %d trials; want some of each", with, len(a))
			}
			s, err := New(context.Background(), name, sp, 3)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			b, _ := drive(t, name, s, sp, 40, mixedObjective)
			n := len(a)
			if name == GoptunaTPE {
				n = tpeStartup
			}
			for i := range n {
				if !reflect.DeepEqual(a[i], b[i]) {
					t.Fatalf("trial %d differs between runs with seed 3:\n%v\n%v", i, a[i], b[i])
				}
			}
			checkProtocol(t, s)
		})
	}
}

// TestSeedsDiffer checks that the seed reaches the peer. The Optuna
// samplers share the Go side of seeding, so optuna-random stands for them.
func TestSeedsDiffer(t *testing.T) {
	sp := mixedSpace()
	for _, name := range []string{GoptunaTPE, GoptunaCMAES, OptunaRandom} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			need(t, name)
			s, err := New(context.Background(), name, sp, 3)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			a, _ := drive(t, name, s, sp, 1, mixedObjective)
			b, _ := run(t, name, sp, 4, 1, mixedObjective)
			if reflect.DeepEqual(a[0], b[0]) {
				t.Errorf("seeds 3 and 4 gave the same first configuration %v", a[0])
			}
		})
	}
}

// checkProtocol checks misuse and the recovery from an Ask that was never
// told, then closes s.
func checkProtocol(t *testing.T, s Session) {
	ctx := context.Background()
	if err := s.Tell(ctx, 1); err == nil || !strings.Contains(err.Error(), "without a pending Ask") {
		t.Errorf("Tell before Ask: %v", err)
	}
	if _, err := s.Ask(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ask(ctx); err != nil { // abandons the first
		t.Fatalf("second Ask without Tell: %v", err)
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1)} {
		if err := s.Tell(ctx, bad); err == nil {
			t.Errorf("Tell(%v) succeeded", bad)
		}
	}
	if err := s.Tell(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := s.Tell(ctx, 2); err == nil {
		t.Error("second Tell succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Ask(cancelled); err == nil {
		t.Error("Ask with a cancelled context succeeded")
	}
	if _, err := s.Ask(ctx); err != nil {
		t.Errorf("Ask after a cancelled one: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Ask(ctx); err == nil {
		t.Error("Ask after Close succeeded")
	}
}

// TestTPEImproves checks that TPE, once it models the history, finds better
// points on a quadratic than its 10 random start-up points.
func TestTPEImproves(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "a", Kind: space.Float, Low: -5, High: 5},
		space.Param{Name: "b", Kind: space.Float, Low: -5, High: 5},
		space.Param{Name: "c", Kind: space.Float, Low: -5, High: 5},
	)
	quad := func(a space.Assignment) float64 {
		return sq(a["a"].(float64)-1) + sq(a["b"].(float64)+2) + sq(a["c"].(float64)-0.5)
	}
	for _, name := range []string{GoptunaTPE, OptunaTPE} {
		t.Run(name, func(t *testing.T) {
			t.Parallel() // an Optuna process takes about half a second to import Optuna
			need(t, name)
			_, vs := run(t, name, sp, 11, 60, quad)
			random, modeled := slices.Min(vs[:10]), slices.Min(vs[10:])
			if modeled >= random {
				t.Errorf("best of trials 11-60 = %.4g, want below the best random start-up value %.4g", modeled, random)
			}
		})
	}
}

// TestKinds covers the ordinal forms (evenly spaced decimals, evenly spaced
// whole numbers, uneven values) and conditions on bool, int and ordinal
// parents. The Optuna samplers share the adapter's mapping, so
// optuna-random stands for them; it must also reach every ordinal value.
func TestKinds(t *testing.T) {
	sp := space.MustNew(
		space.Param{Name: "flag", Kind: space.Bool},
		space.Param{Name: "k", Kind: space.Int, Low: 1, High: 4},
		space.Param{Name: "dec", Kind: space.Ordinal, Values: []float64{0.1, 0.2, 0.3}},
		space.Param{Name: "ints", Kind: space.Ordinal, Values: []float64{16, 32, 48}},
		space.Param{Name: "uneven", Kind: space.Ordinal, Values: []float64{1, 2, 4, 8}},
		space.Param{Name: "x", Kind: space.Float, Low: -1, High: 1},
		space.Param{Name: "a", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"flag": {"true"}}},
		space.Param{Name: "b", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"k": {"2", "3"}}},
		space.Param{Name: "c", Kind: space.Float, Low: 0, High: 1, When: map[string][]string{"dec": {"0.2"}}},
	)
	f := func(a space.Assignment) float64 { return sq(a["x"].(float64)) + a["uneven"].(float64) }
	for _, name := range []string{GoptunaTPE, GoptunaCMAES, OptunaRandom} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			need(t, name)
			as, _ := run(t, name, sp, 5, 30, f)
			seen := map[string]bool{}
			for _, a := range as {
				for k, v := range a {
					seen[k+"="+space.Format(v)] = true
					seen[k] = true
				}
			}
			for _, child := range []string{"a", "b", "c"} {
				if !seen[child] {
					t.Errorf("%s never active", child)
				}
			}
			if name != OptunaRandom {
				return
			}
			for _, p := range sp.Params() {
				for _, v := range p.Values {
					if !seen[p.Name+"="+space.Format(v)] {
						t.Errorf("%s never took the value %v", p.Name, v)
					}
				}
			}
		})
	}
}

// TestOptunaHugeOrdinal runs optuna-tpe past its random start-up on evenly
// spaced whole values beyond int64 (1e20, 2e20, 3e20): suggest_int made
// Optuna's TPE fail every ask from the 11th on (NumPy object arrays have no
// rint), so the adapter asks a float step distribution instead.
func TestOptunaHugeOrdinal(t *testing.T) {
	t.Parallel()
	need(t, OptunaTPE)
	sp := space.MustNew(
		space.Param{Name: "big", Kind: space.Ordinal, Values: []float64{1e20, 2e20, 3e20}},
		space.Param{Name: "x", Kind: space.Float, Low: 0, High: 1},
	)
	as, _ := run(t, OptunaTPE, sp, 3, 15, func(a space.Assignment) float64 { return a["big"].(float64)/1e20 + a["x"].(float64) })
	if len(as) != 15 {
		t.Errorf("%d asks, want 15", len(as))
	}
}

// TestAskTrial: configurations asked with AskTrial stay out together, also
// across plain asks (which fail only the last plain one left untold), and
// are told in any order; telling one twice, one never asked, or a value
// that is not finite fails.
func TestAskTrial(t *testing.T) {
	sp := mixedSpace()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			need(t, name)
			ctx := context.Background()
			s, err := New(ctx, name, sp, 5)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			out := map[int64]space.Assignment{}
			for range 4 {
				id, a, err := s.AskTrial(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if err := sp.Validate(a); err != nil {
					t.Fatalf("AskTrial: %v", err)
				}
				out[id] = a
			}
			if len(out) != 4 {
				t.Fatalf("4 AskTrials gave %d distinct ids", len(out))
			}
			for range 2 { // the second fails the first; neither touches the kept ones
				if _, err := s.Ask(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Tell(ctx, 1); err != nil {
				t.Fatal(err)
			}
			ids := slices.Sorted(maps.Keys(out))
			slices.Reverse(ids)
			if err := s.TellTrial(ctx, ids[0], math.NaN()); err == nil {
				t.Error("TellTrial(NaN) succeeded")
			}
			for _, id := range ids {
				if err := s.TellTrial(ctx, id, mixedObjective(out[id])); err != nil {
					t.Fatalf("TellTrial(%d), out of order: %v", id, err)
				}
			}
			if err := s.TellTrial(ctx, ids[0], 1); err == nil {
				t.Errorf("a second TellTrial(%d) succeeded", ids[0])
			}
			if err := s.TellTrial(ctx, 1000, 1); err == nil {
				t.Error("TellTrial of an id never asked succeeded")
			}
			if _, _, err := s.AskTrial(ctx); err != nil {
				t.Errorf("AskTrial after the tells: %v", err)
			}
		})
	}
}
